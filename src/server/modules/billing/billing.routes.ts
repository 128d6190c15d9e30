// Billing API.
//
// GET  /api/subscription/status      signed in → 200 { tier, status, trialEndsAt, currency,
//        currentPeriodEnd, customDomainAddon, checkoutCompleted } (the spec's check-subscription
//        plus what the dashboard shows; no subscription yet reads as mini / trial / null / GBP).
// POST /api/billing/checkout         { tier, currency? } → 200 { url } — open it (pricing page,
//        or resuming payment). 401 'Please log in to subscribe' when signed out.
// POST /api/billing/portal           {} → 200 { url } — manage card, plan, cancellation.
//        409 when no checkout was completed yet (Stripe), 404 without a subscription.
// POST /api/billing/change-plan      { tier, confirmHiddenBooks? } → 200 { subscription: { tier, status, trialEndsAt } }
//        409 when the subscription has ended (reactivate first); 409 books_would_be_hidden (the
//        message says how many) when the plan shows fewer books than readers see now and
//        confirmHiddenBooks is not true.
// POST /api/billing/cancel           {} → 200 { subscription } — status "cancelled"; the site
//        stays live until the end of the paid period (or trial). 409 when already cancelled/ended.
// POST /api/billing/reactivate       {} → 200 { subscription, checkoutUrl } — a cancelled
//        subscription resumes at once (checkoutUrl null); an expired one needs payment: open
//        checkoutUrl. 409 when already active.
// POST /api/webhooks/stripe          Stripe only (signed; raw body). 400 on a bad signature,
//        404 when Stripe is not configured, 500 when processing failed and a retry may help
//        (Stripe retries). 200 { received, applied, unprocessable } otherwise: an event that can
//        never apply (unknown subscription, unsupported currency) is acknowledged, recorded and
//        mailed to staff.
// All errors: { error: { code, message, field? } }. 401 'Not authenticated' when signed out.
import { Hono } from "hono";
import { changePlanSchema, checkoutSchema, emptySchema } from "../../../shared/schemas/billing.ts";
import type { AppVars } from "../../http/context.ts";
import { errorBody, HttpError, invalidJson, parseWith, readJson } from "../../http/errors.ts";
import { requireUser } from "../../http/session.ts";
import { alertStaff } from "../staff/staff-alerts.service.ts";
import {
  cancelSubscription,
  changePlan,
  getSubscriptionDetails,
  openPortal,
  processBillingEvents,
  reactivateSubscription,
  startCheckout,
} from "./billing.service.ts";
import { assertDowngradeConfirmed } from "./downgrade.ts";
import { billingProviderFor, WebhookSignatureError } from "./provider.ts";

/** No body, an empty body or `{}` are all fine for the action endpoints; anything else is not. */
async function readEmpty(c: Parameters<typeof readJson>[0]) {
  const text = await c.req.text();
  if (text.trim() === "") return;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw invalidJson();
  }
  parseWith(emptySchema, raw);
}

export function billingRoutes() {
  const r = new Hono<AppVars>();

  r.get("/subscription/status", async (c) => {
    const me = await requireUser(c);
    return c.json(await getSubscriptionDetails(c.get("deps").database.db, me.id));
  });

  r.post("/billing/checkout", async (c) => {
    const me = await requireUser(c).catch(() => {
      throw new HttpError(401, "Please log in to subscribe");
    });
    const input = await readJson(c, checkoutSchema);
    const { database, env } = c.get("deps");
    return c.json(await startCheckout(database.db, billingProviderFor(env), env.appOrigin, me, input));
  });

  r.post("/billing/portal", async (c) => {
    const me = await requireUser(c);
    await readEmpty(c);
    const { database, env } = c.get("deps");
    return c.json(await openPortal(database.db, billingProviderFor(env), env.appOrigin, me.id));
  });

  r.post("/billing/change-plan", async (c) => {
    const me = await requireUser(c);
    const { tier, confirmHiddenBooks } = await readJson(c, changePlanSchema);
    const { database, env } = c.get("deps");
    await assertDowngradeConfirmed(database.db, me.id, tier, confirmHiddenBooks === true);
    return c.json({ subscription: await changePlan(database.db, billingProviderFor(env), me.id, tier) });
  });

  r.post("/billing/cancel", async (c) => {
    const me = await requireUser(c);
    await readEmpty(c);
    const { database, env } = c.get("deps");
    return c.json({ subscription: await cancelSubscription(database.db, billingProviderFor(env), me.id) });
  });

  r.post("/billing/reactivate", async (c) => {
    const me = await requireUser(c);
    await readEmpty(c);
    const { database, env } = c.get("deps");
    return c.json(await reactivateSubscription(database.db, billingProviderFor(env), env.appOrigin, me));
  });

  r.post("/webhooks/stripe", async (c) => {
    const { database, env, logger } = c.get("deps");
    const provider = billingProviderFor(env);
    if (provider.name !== "stripe") throw new HttpError(404, "Stripe webhooks are not configured");
    // The signature covers the exact bytes Stripe sent, so the body is read raw.
    const raw = await c.req.text();
    let events: Awaited<ReturnType<typeof provider.parseWebhook>>;
    try {
      events = await provider.parseWebhook(raw, c.req.header("stripe-signature"));
    } catch (err) {
      if (err instanceof WebhookSignatureError)
        throw new HttpError(400, "Invalid webhook signature", { code: "invalid_signature" });
      logger.error({ err }, "reading a Stripe webhook failed");
      return c.json(errorBody("internal_error", "Webhook processing failed"), 500);
    }
    try {
      const { applied, unprocessable } = await processBillingEvents(database.db, events, "stripe");
      if (unprocessable.length) {
        await alertStaff(
          { db: database.db, mailer: c.get("deps").mailer, logger },
          {
            subject: "Stripe events we could not apply",
            text:
              "Stripe sent events that Bookplate can never apply. They were acknowledged (so Stripe " +
              "stops retrying) and recorded in processed_webhook_events with outcome 'unprocessable'. " +
              "Please check them in the Stripe dashboard:\n\n" +
              unprocessable.map((u) => `- ${u.id} (${u.type}): ${u.reason}`).join("\n"),
          },
        );
      }
      return c.json({ received: true, applied, unprocessable: unprocessable.length });
    } catch (err) {
      logger.error({ err, events: events.map((e) => e.id) }, "processing a Stripe webhook failed");
      return c.json(errorBody("internal_error", "Webhook processing failed"), 500);
    }
  });

  return r;
}
