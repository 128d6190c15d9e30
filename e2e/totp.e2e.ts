// The helper itself against RFC 6238's published SHA-1 vectors (8 digits, ASCII secret).
import { describe, expect, it } from "vitest";
import { totp } from "./totp.ts";

const SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"; // base32 of "12345678901234567890"

describe("totp helper", () => {
  it("matches the RFC 6238 test vectors", () => {
    expect(totp(SECRET, 59_000, 30, 8)).toBe("94287082");
    expect(totp(SECRET, 1_111_111_109_000, 30, 8)).toBe("07081804");
    expect(totp(SECRET, 2_000_000_000_000, 30, 8)).toBe("69279037");
  });
});
