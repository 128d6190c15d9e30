// Sandbox billing end to end, the billing endpoints' input checks, and the expiry job.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { subscriptions } from "../../../db/schema/index.ts";
import type { Tier } from "../../../shared/enums.ts";
import { apiClient, type Client, callApi, type JsonBody, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { completeSandboxCheckout, createAuthor, createSignedInUser } from "../../../testing/users.ts";
import { runSubscriptionExpiry } from "../../jobs/subscription-expiry.job.ts";

startFileServer();

let n = 0;
const newUser = () => createSignedInUser(s, { prefix: "bill" });

async function onboarded(tier: Tier = "mini") {
  const u = await newUser();
  const subdomain = `site${n++}x${Date.now() % 100000}`;
  const res = await apiClient(s, u).onboarding.complete.$post({
    json: {
      name: "Jane",
      email: u.email,
      websiteName: "Site",
      subdomain,
      domainOption: "free",
      tier,
      currency: "GBP",
    },
  });
  expect(res.status).toBe(201);
  return { ...u, subdomain, checkoutUrl: (await readJson(res)).body.checkoutUrl as string };
}

const sub = async (userId: string) =>
  (await s.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0];

describe("sandbox checkout", () => {
  it("shows a test-mode page with the plan and price, and completes over HTTP", async () => {
    const u = await onboarded("maxi");
    const url = new URL(u.checkoutUrl);
    expect(url.pathname).toBe("/billing/sandbox/checkout");
    const statusOf = async () => (await apiClient(s, u).subscription.status.$get()).json();
    expect(await statusOf()).toMatchObject({
      tier: "maxi",
      status: "trial",
      currency: "GBP",
      checkoutCompleted: false,
    });
    const pageRes = await s.api(`${url.pathname}${url.search}`, { cookie: u.cookie });
    expect(pageRes.status).toBe(200);
    const html = await pageRes.text();
    expect(html).toContain("TEST MODE — no real payment");
    expect(html).toContain("Maxi");
    expect(html).toContain("£7.99/month");
    expect(html).toContain("billing starts on day 15");
    const session = url.searchParams.get("session") ?? "";
    const post = await s.api("/billing/sandbox/checkout", {
      method: "POST",
      cookie: u.cookie,
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ session, action: "pay", card: "4242" }).toString(),
    });
    expect(post.status).toBe(303);
    const loc = post.headers.get("location") ?? "";
    expect(loc).toBe(`/dashboard?success=true&session_id=${encodeURIComponent(session)}`);
    const row = await sub(u.id);
    expect(row).toMatchObject({ status: "trial", provider: "sandbox", tier: "maxi" });
    expect(row?.providerSubscriptionId).toBeTruthy();
    expect(await statusOf()).toMatchObject({ tier: "maxi", status: "trial", checkoutCompleted: true });
    const dash = await s.api(loc, { cookie: u.cookie });
    expect([200, 503]).toContain(dash.status); // the SPA shell (503 only when it is not built)
  });

  it("refuses someone else's checkout session and a signed-out visitor", async () => {
    const a = await onboarded();
    const b = await newUser();
    const url = new URL(a.checkoutUrl);
    expect((await s.api(`${url.pathname}${url.search}`, { cookie: b.cookie })).status).toBe(404);
    expect((await s.api(`${url.pathname}${url.search}`)).status).toBe(401);
    const post = await s.api("/billing/sandbox/checkout", {
      method: "POST",
      cookie: b.cookie,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ session: url.searchParams.get("session") ?? "", action: "pay" }).toString(),
    });
    expect(post.status).toBe(404);
    const crossSite = await s.api("/billing/sandbox/checkout", {
      method: "POST",
      cookie: a.cookie,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ session: url.searchParams.get("session") ?? "", action: "pay" }).toString(),
    });
    expect(crossSite.status).toBe(403);
    expect(await sub(b.id)).toBeUndefined();
    expect((await sub(a.id))?.providerSubscriptionId).toBeNull();
    const garbage = await s.api("/billing/sandbox/checkout?session=sbx_notbase64!!", { cookie: a.cookie });
    expect(garbage.status).toBe(404);
  });

  it("portal page changes plan, cancels and reactivates", async () => {
    const u = await onboarded();
    const portal = await apiClient(s, u).billing.portal.$post();
    expect(portal.status).toBe(200);
    const { url } = (await readJson(portal)).body;
    const path = new URL(url).pathname;
    expect(path).toBe("/billing/sandbox/portal");
    expect(await (await s.api(path, { cookie: u.cookie })).text()).toContain("TEST MODE — no real payment");
    const act = (form: Record<string, string>) =>
      s.api(path, {
        method: "POST",
        cookie: u.cookie,
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      });
    expect((await act({ action: "change-plan", tier: "mega" })).status).toBe(303);
    expect((await sub(u.id))?.tier).toBe("mega");
    expect((await act({ action: "change-plan", tier: "platinum" })).status).toBe(400);
    expect((await act({ action: "cancel" })).status).toBe(303);
    expect((await sub(u.id))?.status).toBe("cancelled");
    expect((await act({ action: "reactivate" })).status).toBe(303);
    expect((await sub(u.id))?.status).toBe("trial");
  });

  it("portal and checkout refuse a form posted from another site, with or without an Origin", async () => {
    const u = await onboarded();
    const session = new URL(u.checkoutUrl).searchParams.get("session") ?? "";
    const post = (path: string, form: Record<string, string>, headers: Record<string, string>) => {
      const h = new Headers({ "content-type": "application/x-www-form-urlencoded", cookie: u.cookie, ...headers });
      // fetch sends no Origin of its own here; the browser's headers are set by hand.
      if (!("origin" in headers)) h.delete("origin");
      return fetch(`${s.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: h,
        body: new URLSearchParams(form),
      });
    };
    const foreign: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    ];
    for (const headers of foreign) {
      expect((await post("/billing/sandbox/portal", { action: "cancel" }, headers)).status).toBe(403);
      expect((await post("/billing/sandbox/checkout", { session, action: "pay" }, headers)).status).toBe(403);
    }
    expect((await sub(u.id))?.status).toBe("trial");
    expect((await sub(u.id))?.providerSubscriptionId).toBeNull();
    // The app's own form, as a browser sends it.
    const own = { origin: new URL(s.url).origin, "sec-fetch-site": "same-origin" };
    expect((await post("/billing/sandbox/portal", { action: "cancel" }, own)).status).toBe(303);
    expect((await sub(u.id))?.status).toBe("cancelled");
  });
});

describe("billing changes reach the public site at once", () => {
  it("an expired subscription takes the cached site offline, and reactivation brings it back", async () => {
    const u = await onboarded();
    // Not public until the card is entered (ADR 022).
    expect((await s.onHost(`${u.subdomain}.localhost`, "/")).body).toContain("Coming soon");
    await completeSandboxCheckout(s, u.cookie, u.checkoutUrl);
    expect((await s.onHost(`${u.subdomain}.localhost`, "/")).status).toBe(200); // now in the page cache
    expect((await s.onHost(`${u.subdomain}.localhost`, "/")).status).toBe(200);
    expect((await apiClient(s, u).billing.cancel.$post({ json: {} })).status).toBe(200);
    await runSubscriptionExpiry(s.database.db, new Date(Date.now() + 40 * 864e5));
    expect((await sub(u.id))?.status).toBe("expired");
    const offline = await s.onHost(`${u.subdomain}.localhost`, "/");
    expect(offline.status).toBe(503);
    expect(offline.body).toContain("temporarily unavailable");

    const re = await apiClient(s, u).billing.reactivate.$post();
    const session = new URL((await readJson(re)).body.checkoutUrl).searchParams.get("session") ?? "";
    await s.api("/billing/sandbox/checkout", {
      method: "POST",
      cookie: u.cookie,
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ session, action: "pay" }).toString(),
    });
    expect((await s.onHost(`${u.subdomain}.localhost`, "/")).status).toBe(200);
  });
});

describe("a smaller plan that would hide books", () => {
  it("asks first, naming how many; hides only once confirmed; an upgrade or a plan that hides nothing just changes", async () => {
    const a = await createAuthor(s, { tier: "midi" });
    for (let i = 1; i <= 7; i++) {
      const r = await apiClient(s, a).books.$post({ json: { title: `Book ${i}`, author: "Jane" } });
      expect(r.status).toBe(201);
    }
    const change = (body: JsonBody<Client["billing"]["change-plan"]["$post"]>) =>
      apiClient(s, a).billing["change-plan"].$post({ json: body });
    const refused = await change({ tier: "mini" });
    expect(refused.status).toBe(409);
    const { error } = (await readJson(refused)).body;
    expect(error.code).toBe("books_would_be_hidden");
    expect(error.message).toMatch(/^2 of your books will no longer be shown on your site: the Mini plan shows 5\./);
    expect((await sub(a.id))?.tier).toBe("midi");
    // Not a boolean on purpose: the typed client refuses to send it.
    expect(
      (await callApi(s, a, "POST", "/api/billing/change-plan", { tier: "mini", confirmHiddenBooks: "yes" })).status,
    ).toBe(400);
    expect((await sub(a.id))?.tier).toBe("midi");

    const done = await change({ tier: "mini", confirmHiddenBooks: true });
    expect(done.status).toBe(200);
    expect((await sub(a.id))?.tier).toBe("mini");
    // Nothing more to hide going up, or sideways.
    expect((await change({ tier: "mega" })).status).toBe(200);

    // The sandbox's portal asks the same question on its own page.
    const portal = (form: Record<string, string>) =>
      s.api("/billing/sandbox/portal", {
        method: "POST",
        cookie: a.cookie,
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ action: "change-plan", ...form }).toString(),
      });
    const asked = await portal({ tier: "mini" });
    expect(asked.status).toBe(409);
    expect(await asked.text()).toContain("2 of your books will no longer be shown on your site");
    expect((await sub(a.id))?.tier).toBe("mega");
    expect((await portal({ tier: "mini", confirmHiddenBooks: "yes" })).status).toBe(303);
    expect((await sub(a.id))?.tier).toBe("mini");
  });
});

describe("billing API", () => {
  it("reports the subscription, defaulting to mini/trial", async () => {
    const u = await newUser();
    expect(await (await apiClient(s, u).subscription.status.$get()).json()).toEqual({
      tier: "mini",
      status: "trial",
      trialEndsAt: null,
      currency: "GBP",
      currentPeriodEnd: null,
      customDomainAddon: false,
      checkoutCompleted: false,
    });
    expect((await apiClient(s).subscription.status.$get()).status).toBe(401);
  });

  it("checkout says 'Please log in to subscribe' when signed out", async () => {
    const res = await apiClient(s).billing.checkout.$post({ json: { tier: "mini", currency: "GBP" } });
    expect(res.status).toBe(401);
    expect((await readJson(res)).body.error.message).toBe("Please log in to subscribe");
  });

  it.each([
    ["/api/billing/checkout", { tier: "gold", currency: "GBP" }, "Plan must be one of mini, midi, maxi, mega"],
    ["/api/billing/checkout", { tier: "mini", currency: "gbp" }, "Currency must be one of GBP, USD, EUR, CAD, AUD"],
    ["/api/billing/checkout", { tier: "mini", amount: -5 }, "Unknown field: amount"],
    ["/api/billing/change-plan", { tier: 7 }, "Plan must be one of mini, midi, maxi, mega"],
    ["/api/billing/change-plan", { tier: "mini", userId: "x" }, "Unknown field: userId"],
    ["/api/billing/cancel", { userId: "someone-else" }, "Unknown field: userId"],
    ["/api/billing/reactivate", { force: true }, "Unknown field: force"],
    ["/api/billing/portal", { customerId: "cus_other" }, "Unknown field: customerId"],
  ])("%s refuses %j", async (path, json, message) => {
    const u = await onboarded("midi");
    const before = await sub(u.id);
    const res = await s.api(path, { method: "POST", cookie: u.cookie, json });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe(message);
    expect(await sub(u.id)).toEqual(before);
  });

  it("changes plan, cancels (live until the end), refuses a double cancel, reactivates", async () => {
    const u = await onboarded();
    const change = await apiClient(s, u).billing["change-plan"].$post({ json: { tier: "maxi" } });
    expect((await readJson(change)).body.subscription.tier).toBe("maxi");
    const cancel = await apiClient(s, u).billing.cancel.$post();
    expect(cancel.status).toBe(200);
    const row = await sub(u.id);
    expect(row?.status).toBe("cancelled");
    expect(row?.currentPeriodEnd?.getTime()).toBe(row?.trialEndsAt?.getTime());
    expect((await apiClient(s, u).billing.cancel.$post()).status).toBe(409);
    const re = await apiClient(s, u).billing.reactivate.$post({ json: {} });
    expect(await re.json()).toMatchObject({ subscription: { status: "trial", tier: "maxi" }, checkoutUrl: null });
    expect((await apiClient(s, u).billing.reactivate.$post()).status).toBe(409);
  });

  it("answers 404 for actions without a subscription", async () => {
    const u = await newUser();
    for (const p of ["/api/billing/cancel", "/api/billing/reactivate", "/api/billing/portal"]) {
      expect((await s.api(p, { method: "POST", cookie: u.cookie })).status).toBe(404);
    }
    expect((await apiClient(s, u).billing["change-plan"].$post({ json: { tier: "mega" } })).status).toBe(404);
  });

  it("has no Stripe webhook endpoint in sandbox mode", async () => {
    const res = await s.api("/api/webhooks/stripe", { method: "POST", body: "{}", headers: { origin: "" } });
    expect(res.status).toBe(404);
  });
});

describe("expiry job", () => {
  it("expires ended trials without checkout and ended cancellations; reactivation restores", async () => {
    const unpaid = await onboarded();
    const paid = await onboarded();
    await completeSandboxCheckout(s, paid.cookie, paid.checkoutUrl);
    const cancelled = await onboarded();
    await apiClient(s, cancelled).billing.cancel.$post();

    // Nothing is due yet.
    await runSubscriptionExpiry(s.database.db);
    expect((await sub(unpaid.id))?.status).toBe("trial");

    const later = new Date(Date.now() + 15 * 864e5);
    // Two overlapping runs in one process: one does the work, the other stands aside.
    const [first, second] = await Promise.all([
      runSubscriptionExpiry(s.database.db, later),
      runSubscriptionExpiry(s.database.db, later),
    ]);
    expect(second).toEqual({ skipped: true });
    expect(first).toMatchObject({ trialsConverted: expect.any(Number) });
    if ("skipped" in first) throw new Error("the first run must not be skipped");
    expect(first.trialsExpired).toBeGreaterThanOrEqual(1);
    expect(first.cancelledExpired).toBeGreaterThanOrEqual(1);
    expect((await sub(unpaid.id))?.status).toBe("expired");
    expect((await sub(paid.id))?.status).toBe("active");
    expect((await sub(cancelled.id))?.status).toBe("expired");

    // Reactivating an expired subscription goes through checkout, then it is active again.
    const re = await apiClient(s, unpaid).billing.reactivate.$post();
    const { checkoutUrl } = (await readJson(re)).body;
    expect(checkoutUrl).toMatch(/\/billing\/sandbox\/checkout/);
    await completeSandboxCheckout(s, unpaid.cookie, checkoutUrl);
    expect((await sub(unpaid.id))?.status).toBe("active");
  });
});
