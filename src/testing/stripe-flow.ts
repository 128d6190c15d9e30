// An author through sign-up and onboarding on a server with Stripe configured, linked to a
// subscription in the fake Stripe; and webhook events signed as Stripe signs them. Shared by the
// billing tests and the two-server test (a webhook takes effect once).
import Stripe from "stripe";
import { expect } from "vitest";
import type { FakeStripe } from "./fake-stripe.ts";
import { firstLink } from "./smtp-catcher.ts";
import { cookiesFrom, type TestServer } from "./test-server.ts";

export const WEBHOOK_SECRET = "whsec_test_secret";
const signer = new Stripe("sk_test_signer");

/** The environment of a server that bills through the fake Stripe. */
export const stripeEnv = (fake: FakeStripe) => ({
  STRIPE_SECRET_KEY: "sk_test_fake",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  ...fake.env,
});

let n = 0;
export async function onboarded(s: TestServer, over: Record<string, unknown> = {}) {
  const email = `stripe-${n++}-${Date.now()}@example.com`;
  const res = await s.api("/api/auth/sign-up/email", {
    method: "POST",
    json: { name: "Jane Author", email, password: "correct horse battery" },
  });
  const id = (await res.json()).user.id as string;
  const mail = await s.smtp.waitFor(email, "Confirm your email");
  const cookie = cookiesFrom(await fetch(firstLink(mail.text), { redirect: "manual" }));
  const done = await s.api("/api/onboarding/complete", {
    method: "POST",
    cookie,
    json: {
      name: "Jane",
      email,
      websiteName: "Site",
      subdomain: `stripe${n}x${Date.now() % 100000}`,
      domainOption: "free",
      tier: "midi",
      currency: "USD",
      ...over,
    },
  });
  expect(done.status).toBe(201);
  return { id, email, cookie, checkoutUrl: (await done.json()).checkoutUrl as string };
}

let ev = 0;
export function event(type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)) {
  return { id: `evt_test_${ev++}_${Date.now()}`, object: "event", type, created, livemode: false, data: { object } };
}

let invoices = 0;
/** An invoice's event for the subscription `subId`: paid (799 USD cents) or failed, with `over` on top. */
export const invoiceEvent = (
  type: "invoice.paid" | "invoice.payment_failed",
  subId: string,
  over: Record<string, unknown> = {},
  created?: number,
) =>
  event(
    type,
    {
      id: `in_${type === "invoice.paid" ? "paid" : "fail"}_${invoices++}_${Date.now()}`,
      object: "invoice",
      currency: "usd",
      amount_paid: type === "invoice.paid" ? 799 : 0,
      parent: { subscription_details: { subscription: subId } },
      ...over,
    },
    created,
  );

export function deliver(s: TestServer, payload: unknown, secret = WEBHOOK_SECRET) {
  const body = JSON.stringify(payload);
  const signature = signer.webhooks.generateTestHeaderString({ payload: body, secret });
  // Stripe sends no Origin header.
  return fetch(`${s.url}/api/webhooks/stripe`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body,
  });
}

/** An onboarded author whose checkout completed: a subscription in the fake Stripe, linked to theirs. */
export async function linked(s: TestServer, fake: FakeStripe) {
  const u = await onboarded(s);
  const stripeSub = fake.putSubscription({
    status: "trialing",
    metadata: { userId: u.id, tier: "midi", currency: "USD", customDomain: "false" },
    trialEnd: new Date(Date.now() + 14 * 864e5),
    currency: "usd",
    unitAmount: 799,
  });
  const res = await deliver(
    s,
    event("checkout.session.completed", {
      id: "cs_test_1",
      object: "checkout.session",
      client_reference_id: u.id,
      customer: stripeSub.customer,
      subscription: stripeSub.id,
    }),
  );
  expect(res.status).toBe(200);
  return { ...u, subId: stripeSub.id as string, customer: stripeSub.customer as string };
}
