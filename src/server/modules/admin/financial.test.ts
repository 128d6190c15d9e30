// The Financial tab's figures against subscriptions and payments written by the billing flow
// (the real Stripe SDK against the fake Stripe server, signed webhooks), in three currencies
// with known rates.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Currency, Tier } from "../../../shared/enums.ts";
import { putRate } from "../../../testing/admin.ts";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import { type FakeStripe, startFakeStripe } from "../../../testing/fake-stripe.ts";
import { firstLink } from "../../../testing/smtp-catcher.ts";
import { cookiesFrom, startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createStaffUser, type TestUser } from "../../../testing/users.ts";
import { convertMinor } from "./money.ts";

const WEBHOOK_SECRET = "whsec_admin_financial";
const signer = new Stripe("sk_test_signer");
let s: TestServer;
let fake: FakeStripe;
let boss: TestUser;

beforeAll(async () => {
  fake = await startFakeStripe();
  s = await startTestServer({ STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, ...fake.env });
  boss = await createStaffUser(s, "super_admin", { prefix: "finance-boss" });
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

let n = 0;
let ev = 0;
function deliver(type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)) {
  const body = JSON.stringify({
    id: `evt_fin_${ev++}_${Date.now()}`,
    object: "event",
    type,
    created,
    livemode: false,
    data: { object },
  });
  const signature = signer.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET });
  return fetch(`${s.url}/api/webhooks/stripe`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body,
  });
}

/** An author who signed up, chose `tier` in `currency`, paid through Stripe and is now active. */
async function payingAuthor(tier: Tier, currency: Currency, amountMinor: number) {
  const email = `finance-${n++}-${Date.now()}@example.com`;
  const res = await s.api("/api/auth/sign-up/email", {
    method: "POST",
    json: { name: "Paying Author", email, password: "correct horse battery" },
  });
  const id = (await res.json()).user.id as string;
  const cookie = cookiesFrom(
    await fetch(firstLink((await s.smtp.waitFor(email, "Confirm your email")).text), { redirect: "manual" }),
  );
  const done = await apiClient(s, { cookie: cookie }).onboarding.complete.$post({
    json: {
      name: "Paying Author",
      email,
      websiteName: "Site",
      subdomain: `fin${n}x${Date.now() % 100000}`,
      domainOption: "free",
      tier,
      currency,
    },
  });
  expect(done.status).toBe(201);
  const sub = fake.putSubscription({
    status: "active",
    metadata: { userId: id, tier, currency, customDomain: "false" },
    currency: currency.toLowerCase(),
    unitAmount: amountMinor,
  });
  const linked = await deliver("checkout.session.completed", {
    id: `cs_fin_${n}`,
    object: "checkout.session",
    client_reference_id: id,
    customer: sub.customer,
    subscription: sub.id,
  });
  expect(linked.status).toBe(200);
  expect((await deliver("customer.subscription.updated", { id: sub.id, object: "subscription" })).status).toBe(200);
  const pay = (created?: number) =>
    deliver(
      "invoice.paid",
      {
        id: `in_fin_${n}_${ev}_${Date.now()}`,
        object: "invoice",
        customer: sub.customer,
        currency: currency.toLowerCase(),
        amount_paid: amountMinor,
        parent: { subscription_details: { subscription: sub.id } },
      },
      created,
    );
  expect((await pay()).status).toBe(200);
  return { id, pay };
}

describe("financial figures", () => {
  it("converts real payments and subscriptions to GBP with the stored rates, in minor units", async () => {
    // A super admin sets EUR's rate first (4 decimals shown, 6 kept); USD keeps its default.
    const rate = await putRate(s, boss, "EUR", "0.8612");
    expect(rate.status).toBe(200);
    const bad = await apiClient(s, boss).admin.rates[":currency"].$put({
      param: { currency: "EUR" },
      json: { rate: "-1" },
    });
    expect(bad.status).toBe(400);

    await payingAuthor("midi", "GBP", 599);
    await payingAuthor("midi", "USD", 799);
    const eur = await payingAuthor("maxi", "EUR", 999);
    // A payment from before this month counts toward MRR's subscriber but not this month's revenue.
    expect((await eur.pay(Math.floor(Date.now() / 1000) - 40 * 86400)).status).toBe(200);

    const f = (await readJson(apiClient(s, boss).admin.financial.$get())).body;
    const usd = f.rates.find((r: { fromCurrency: string }) => r.fromCurrency === "USD").rate as string;
    const eurRate = f.rates.find((r: { fromCurrency: string }) => r.fromCurrency === "EUR");
    expect(Number(eurRate.rate)).toBe(0.8612);
    const expected = 599 + convertMinor(799, usd) + convertMinor(999, "0.8612");
    expect(f.monthlyRevenueGbpMinor).toBe(expected);
    expect(f.transactionsThisMonth).toBe(3);
    expect(f.activeSubscriptions).toBe(3);
    expect(f.estimatedMrrGbpMinor).toBe(expected);
    const byTier = Object.fromEntries(f.byTier.map((t: { tier: string }) => [t.tier, t]));
    expect(byTier.midi).toMatchObject({
      subscribers: 2,
      totalGbpMinor: 599 + convertMinor(799, usd),
      priceGbpMinor: 599,
    });
    expect(byTier.maxi).toMatchObject({ subscribers: 1, totalGbpMinor: convertMinor(999, "0.8612") });
    expect(byTier.mini.subscribers).toBe(0);
    const byCurrency = Object.fromEntries(f.byCurrency.map((c: { currency: string }) => [c.currency, c]));
    expect(byCurrency.USD).toMatchObject({ subscribers: 1, mrrMinor: 799, mrrGbpMinor: convertMinor(799, usd) });
    expect(f.recentTransactions).toHaveLength(4);
    expect(f.recentTransactions[0]).toMatchObject({ currency: expect.any(String), amountMinor: expect.any(Number) });
    const audit = (await readJson(apiClient(s, boss).admin.audit.$get())).body;
    expect(audit.entries[0]).toMatchObject({ action: "exchange_rate_changed", target: "EUR→GBP", detail: "0.8612" });
  });

  it("converts exactly: no floating point on the way", () => {
    expect(convertMinor(799, "0.790000")).toBe(631);
    expect(convertMinor(1, "0.5")).toBe(1);
    expect(convertMinor(3, "0.5")).toBe(2);
    expect(convertMinor(1_000_000_001, "1.000001")).toBe(1_000_001_001);
    expect(convertMinor(-799, "0.79")).toBe(-631);
  });
});
