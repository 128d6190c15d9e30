// What the author reads when "Manage billing" fails: the spec's 'No portal URL received' unless
// our own server refused with a reason of its own.
import { describe, expect, it } from "vitest";
import { ApiError, UNEXPECTED_ERROR } from "../../lib/api.ts";
import { NO_PORTAL_URL, portalFailureMessage } from "./dashboard-api.ts";

describe("billing portal failure", () => {
  it("says 'No portal URL received' when no URL came back, the provider failed or the network did", () => {
    expect(NO_PORTAL_URL).toBe("No portal URL received");
    expect(portalFailureMessage(new Error(NO_PORTAL_URL))).toBe(NO_PORTAL_URL);
    expect(portalFailureMessage(new TypeError("Failed to fetch"))).toBe(NO_PORTAL_URL);
    expect(portalFailureMessage(new ApiError(UNEXPECTED_ERROR, 502, undefined, "payment_provider_failed"))).toBe(
      NO_PORTAL_URL,
    );
    // A proxy's error page is not one of our answers (no code).
    expect(portalFailureMessage(new ApiError("Bad Gateway", 400))).toBe(NO_PORTAL_URL);
  });

  it("keeps our own refusal's words", () => {
    const refusal = new ApiError(
      "Please complete checkout before managing your subscription.",
      409,
      undefined,
      "checkout_required",
    );
    expect(portalFailureMessage(refusal)).toBe(refusal.message);
  });
});
