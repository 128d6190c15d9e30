// The Stripe provider through the real `stripe` SDK against a local fake Stripe, and webhooks
// signed by the SDK's own test-header helper.
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processedWebhookEvents, subscriptions, transactions, user } from "../../../db/schema/index.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR } from "../../../shared/plans.ts";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import { type FakeStripe, startFakeStripe } from "../../../testing/fake-stripe.ts";
import { firstLink } from "../../../testing/smtp-catcher.ts";
import {
  deliver as deliverTo,
  event,
  invoiceEvent,
  linked as linkedAt,
  onboarded as onboardedAt,
  stripeEnv,
  WEBHOOK_SECRET,
} from "../../../testing/stripe-flow.ts";
import { cookiesFrom, startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { ADDON_PRODUCT } from "./provider.ts";

let s: TestServer;
let fake: FakeStripe;

beforeAll(async () => {
  fake = await startFakeStripe();
  s = await startTestServer(stripeEnv(fake));
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

const onboarded = (over: Record<string, unknown> = {}) => onboardedAt(s, over);
const deliver = (payload: unknown, secret = WEBHOOK_SECRET) => deliverTo(s, payload, secret);
const linked = () => linkedAt(s, fake);
const sub = async (userId: string) =>
  (await s.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0];

describe("stripe checkout", () => {
  it("creates a subscription-mode session with a 14-day trial and prices from plans.ts", async () => {
    const u = await onboarded({ domainOption: "custom", ownDomain: "jane-stripe.example.com" });
    expect(u.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/cs_test_/);
    const req = fake.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1);
    expect(req?.params).toMatchObject({
      mode: "subscription",
      client_reference_id: u.id,
      customer_email: u.email,
      payment_method_collection: "always",
      "subscription_data[trial_period_days]": "14",
      "line_items[0][price_data][unit_amount]": "799",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][recurring][interval]": "month",
      "line_items[1][price_data][unit_amount]": "500",
      // The add-on is the one product the domain routes add and remove later.
      "line_items[1][price_data][product]": ADDON_PRODUCT,
      "metadata[userId]": u.id,
      "metadata[tier]": "midi",
      "metadata[currency]": "USD",
    });
    expect(req?.params.success_url).toContain("/dashboard?success=true&session_id={CHECKOUT_SESSION_ID}");
  });

  it("answers 502 and keeps the site when Stripe fails, and checkout can be resumed", async () => {
    const email = `stripe-fail-${Date.now()}@example.com`;
    await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "J", email, password: "correct horse battery" },
    });
    const mail = await s.smtp.waitFor(email, "Confirm your email");
    const cookie = cookiesFrom(await fetch(firstLink(mail.text), { redirect: "manual" }));
    fake.failNextRequests(1);
    const res = await apiClient(s, { cookie: cookie }).onboarding.complete.$post({
      json: {
        name: "J",
        email,
        websiteName: "W",
        subdomain: `fail${Date.now() % 100000}`,
        domainOption: "free",
        tier: "mini",
        currency: "GBP",
      },
    });
    expect(res.status).toBe(502);
    const resume = await apiClient(s, { cookie: cookie }).billing.checkout.$post({
      json: { tier: "mini", currency: "GBP" },
    });
    expect(resume.status).toBe(200);
    expect((await readJson(resume)).body.url).toMatch(/checkout\.stripe\.test/);
  });
});

describe("stripe webhooks", () => {
  it("links the subscription on checkout.session.completed", async () => {
    const u = await linked();
    expect(await sub(u.id)).toMatchObject({
      provider: "stripe",
      providerSubscriptionId: u.subId,
      providerCustomerId: u.customer,
      status: "trial",
      tier: "midi",
      currency: "USD",
    });
  });

  it("refuses a bad signature with 400 and changes nothing", async () => {
    const u = await linked();
    const before = await sub(u.id);
    fake.putSubscription({ id: u.subId, customer: u.customer, status: "canceled", metadata: { userId: u.id } });
    const e = event("customer.subscription.deleted", { id: u.subId, object: "subscription" });
    const res = await deliver(e, "whsec_wrong");
    expect(res.status).toBe(400);
    const unsigned = await fetch(`${s.url}/api/webhooks/stripe`, { method: "POST", body: JSON.stringify(e) });
    expect(unsigned.status).toBe(400);
    expect(await sub(u.id)).toEqual(before);
    const seen = await s.database.db.select().from(processedWebhookEvents).where(eq(processedWebhookEvents.id, e.id));
    expect(seen).toHaveLength(0);
  });

  it("records invoice.paid once, in GBP too, however often it is delivered", async () => {
    const u = await linked();
    const e = invoiceEvent("invoice.paid", u.subId, { customer: u.customer });
    expect((await deliver(e)).status).toBe(200);
    const replay = await deliver(e);
    expect(replay.status).toBe(200);
    expect((await replay.json()).applied).toBe(0);
    const rows = await s.database.db.select().from(transactions).where(eq(transactions.userId, u.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ currency: "USD", amountMinor: 799, amountGbpMinor: 631, subscriptionTier: "midi" });
  });

  it("applies Stripe's current state even when events arrive out of order", async () => {
    const u = await linked();
    const now = Math.floor(Date.now() / 1000);
    // Stripe now holds: active (the trial converted). The newer event arrives first.
    fake.putSubscription({
      id: u.subId,
      customer: u.customer,
      status: "active",
      metadata: { userId: u.id, tier: "midi" },
    });
    const newer = event(
      "customer.subscription.updated",
      { id: u.subId, object: "subscription", status: "active" },
      now,
    );
    const older = event(
      "customer.subscription.created",
      { id: u.subId, object: "subscription", status: "trialing" },
      now - 60,
    );
    expect((await deliver(newer)).status).toBe(200);
    expect((await deliver(older)).status).toBe(200);
    expect((await sub(u.id))?.status).toBe("active");

    fake.putSubscription({ id: u.subId, customer: u.customer, status: "canceled", metadata: { userId: u.id } });
    expect(
      (await deliver(event("customer.subscription.deleted", { id: u.subId, object: "subscription" }))).status,
    ).toBe(200);
    expect((await sub(u.id))?.status).toBe("expired");
  });

  it("ignores the end of an older Stripe subscription once a newer one replaced it", async () => {
    const u = await linked();
    const old = fake.putSubscription({ status: "canceled", metadata: { userId: u.id, tier: "mini" } });
    expect((await deliver(event("customer.subscription.deleted", { id: old.id, object: "subscription" }))).status).toBe(
      200,
    );
    expect(await sub(u.id)).toMatchObject({ status: "trial", providerSubscriptionId: u.subId });
  });

  const stripeHolds = (u: { id: string; subId: string; customer: string }, status: string) =>
    fake.putSubscription({
      id: u.subId,
      customer: u.customer,
      status,
      metadata: { userId: u.id, tier: "midi", currency: "USD" },
    });

  it("marks a failed payment past_due", async () => {
    const u = await linked();
    stripeHolds(u, "past_due");
    expect((await deliver(invoiceEvent("invoice.payment_failed", u.subId))).status).toBe(200);
    expect((await sub(u.id))?.status).toBe("past_due");
  });

  it("a paid invoice after a failed one makes the subscription active again", async () => {
    const u = await linked();
    stripeHolds(u, "past_due");
    expect((await deliver(invoiceEvent("invoice.payment_failed", u.subId))).status).toBe(200);
    expect((await sub(u.id))?.status).toBe("past_due");
    stripeHolds(u, "active"); // Stripe's retry charged the card
    expect((await deliver(invoiceEvent("invoice.paid", u.subId))).status).toBe(200);
    expect((await sub(u.id))?.status).toBe("active");
  });

  it("an older paid invoice arriving after a newer failure leaves the subscription past_due", async () => {
    const u = await linked();
    const now = Math.floor(Date.now() / 1000);
    stripeHolds(u, "past_due");
    expect((await deliver(invoiceEvent("invoice.payment_failed", u.subId, {}, now))).status).toBe(200);
    expect((await deliver(invoiceEvent("invoice.paid", u.subId, {}, now - 3600))).status).toBe(200);
    expect((await sub(u.id))?.status).toBe("past_due");
  });

  it("without Stripe's live subscription, a failure means past_due and a payment ends it", async () => {
    const u = await linked();
    fake.subscriptions.delete(u.subId);
    expect((await deliver(invoiceEvent("invoice.payment_failed", u.subId))).status).toBe(200);
    expect((await sub(u.id))?.status).toBe("past_due");
    expect((await deliver(invoiceEvent("invoice.paid", u.subId))).status).toBe(200);
    expect((await sub(u.id))?.status).toBe("active");
  });

  it("acknowledges events it can never apply, records them once and mails staff", async () => {
    const staff = await onboarded();
    await s.database.db.update(user).set({ role: "super_admin" }).where(eq(user.id, staff.id));
    const u = await linked();
    const unknown = invoiceEvent("invoice.paid", "sub_unknown_to_us", { currency: "gbp", amount_paid: 399 });
    const yen = invoiceEvent("invoice.paid", u.subId, { currency: "jpy", amount_paid: 1200 });
    const unknownFailure = invoiceEvent("invoice.payment_failed", "sub_unknown_either");
    for (const e of [unknown, yen, unknownFailure]) {
      const res = await deliver(e);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ received: true, applied: 0, unprocessable: 1 });
      // Redelivered: already recorded, nothing new to report.
      const again = await deliver(e);
      expect(await again.json()).toMatchObject({ received: true, applied: 0, unprocessable: 0 });
    }
    const rows = await s.database.db
      .select()
      .from(processedWebhookEvents)
      .where(inArray(processedWebhookEvents.id, [unknown.id, yen.id, unknownFailure.id]));
    expect(rows.map((r) => r.outcome)).toEqual(["unprocessable", "unprocessable", "unprocessable"]);
    expect(rows.find((r) => r.id === yen.id)?.detail).toContain("JPY");
    expect(await s.database.db.select().from(transactions).where(eq(transactions.userId, u.id))).toHaveLength(0);
    expect((await sub(u.id))?.status).toBe("trial");
    const to = (m: { to: string[] }, email: string) => m.to.includes(email.toLowerCase());
    await s.mailer.idle();
    const alerts = s.smtp.mails.filter((m) => to(m, staff.email) && m.subject.includes("could not apply"));
    expect(alerts).toHaveLength(3);
    expect(alerts.map((m) => m.text).join("\n")).toContain(unknown.id);
    expect(s.smtp.mails.some((m) => to(m, u.email) && m.subject.includes("could not apply"))).toBe(false);
  });

  it("answers 5xx when processing fails, and a redelivery then succeeds once", async () => {
    const u = await linked();
    fake.putSubscription({ id: u.subId, customer: u.customer, status: "active", metadata: { userId: u.id } });
    const e = event("customer.subscription.updated", { id: u.subId, object: "subscription" });
    fake.failNextRequests(1);
    const failed = await deliver(e);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect((await sub(u.id))?.status).toBe("trial");
    const retried = await deliver(e);
    expect(retried.status).toBe(200);
    expect((await retried.json()).applied).toBe(1);
    expect((await sub(u.id))?.status).toBe("active");

    // Stripe's API failing while an invoice is read is worth a retry too (nothing recorded).
    const paid = event("invoice.paid", {
      id: `in_retry_${Date.now()}`,
      object: "invoice",
      currency: "usd",
      amount_paid: 799,
      parent: { subscription_details: { subscription: u.subId } },
    });
    fake.failNextRequests(1);
    expect((await deliver(paid)).status).toBeGreaterThanOrEqual(500);
    const seen = await s.database.db
      .select()
      .from(processedWebhookEvents)
      .where(eq(processedWebhookEvents.id, paid.id));
    expect(seen).toHaveLength(0);
    expect((await deliver(paid)).status).toBe(200);
    expect(await s.database.db.select().from(transactions).where(eq(transactions.userId, u.id))).toHaveLength(1);
  });
});

describe("stripe plan management", () => {
  it("opens the portal for the customer, changes plan, cancels and reactivates through Stripe", async () => {
    const u = await linked();
    const portal = await apiClient(s, u).billing.portal.$post();
    expect(await portal.json()).toEqual({ url: `https://billing.stripe.test/p/${u.customer}` });

    const change = await apiClient(s, u).billing["change-plan"].$post({ json: { tier: "mega" } });
    expect(change.status).toBe(200);
    const upd = fake.requests.filter((r) => r.path === `/v1/subscriptions/${u.subId}` && r.method === "POST").at(-1);
    expect(upd?.params).toMatchObject({
      "items[0][price_data][unit_amount]": "1299",
      "items[0][price_data][product]": "prod_test_plan",
      "metadata[tier]": "mega",
    });
    expect((await sub(u.id))?.tier).toBe("mega");

    expect((await apiClient(s, u).billing.cancel.$post()).status).toBe(200);
    expect(fake.subscriptions.get(u.subId)?.cancel_at_period_end).toBe(true);
    expect((await sub(u.id))?.status).toBe("cancelled");
    expect((await apiClient(s, u).billing.reactivate.$post()).status).toBe(200);
    expect(fake.subscriptions.get(u.subId)?.cancel_at_period_end).toBe(false);
  });

  it("adds the custom-domain add-on when a domain is added and removes it when the domain goes, prorated", async () => {
    const u = await linked();
    type Item = { id: string; price: { product: string; unit_amount: number } };
    const itemsOf = () => (fake.subscriptions.get(u.subId)?.items as { data: Item[] } | undefined)?.data ?? [];
    const put = await apiClient(s, u).domain.$put({ json: { domain: "www.stripe-addon.com" } });
    expect(put.status).toBe(200);
    const addon = itemsOf().filter((i) => i.price.product === ADDON_PRODUCT);
    expect(addon).toHaveLength(1);
    expect(addon[0]?.price.unit_amount).toBe(CUSTOM_DOMAIN_ADDON_MINOR.USD);
    const created = fake.requests.find((r) => r.path === "/v1/subscription_items" && r.method === "POST");
    expect(created?.params).toMatchObject({ subscription: u.subId, proration_behavior: "create_prorations" });
    expect((await sub(u.id))?.customDomainAddon).toBe(true);
    // Changing the domain is not a second add-on.
    await apiClient(s, u).domain.$put({ json: { domain: "www.stripe-addon2.com" } });
    expect(itemsOf().filter((i) => i.price.product === ADDON_PRODUCT)).toHaveLength(1);
    // A plan change touches the plan's item, not the add-on.
    await apiClient(s, u).billing["change-plan"].$post({ json: { tier: "mega" } });
    expect(itemsOf().find((i) => i.price.product === ADDON_PRODUCT)?.price.unit_amount).toBe(
      CUSTOM_DOMAIN_ADDON_MINOR.USD,
    );

    expect((await apiClient(s, u).domain.$delete()).status).toBe(200);
    expect(itemsOf().filter((i) => i.price.product === ADDON_PRODUCT)).toHaveLength(0);
    expect((await sub(u.id))?.customDomainAddon).toBe(false);
  });

  it("changes nothing when Stripe refuses the add-on", async () => {
    const u = await linked();
    fake.failNextRequests(5);
    const put = await apiClient(s, u).domain.$put({ json: { domain: "www.stripe-fails.com" } });
    expect(put.status).toBe(502);
    fake.failNextRequests(0);
    expect((await readJson(apiClient(s, u).domain.$get())).body.domain).toBeNull();
    expect((await sub(u.id))?.customDomainAddon).toBe(false);
  });

  it("refuses the portal before checkout and someone else's subscription is never reached", async () => {
    const u = await onboarded();
    const res = await apiClient(s, u).billing.portal.$post();
    expect(res.status).toBe(409);
    const other = await linked();
    const before = fake.requests.length;
    const cancel = await apiClient(s, u).billing.cancel.$post({ json: { subscriptionId: other.subId } });
    expect(cancel.status).toBe(400);
    expect(fake.requests.length).toBe(before);
    expect(fake.subscriptions.get(other.subId)?.cancel_at_period_end).toBe(false);
  });
});
