// Billing API.
//
// GET  /api/subscription/status      signed in → 200 { tier, status, trialEndsAt, currency,
//        currentPeriodEnd, customDomainAddon, checkoutCompleted } (the spec's check-subscription
//        plus what the dashboard shows; no subscription yet reads as mini / trial / null / GBP).
// POST /api/billing/checkout         { tier, currency? } → 200 { url } — open it (pricing page,
//        or resuming payment). 401 'Please log in to subscribe' when signed out.
// POST /api/billing/portal           {} → 200 { url } — manage card, plan, cancellation.
//        409 when no checkout was completed yet (Stripe), 404 without a subscription.
// POST /api/billing/change-plan      { tier, confirmHiddenBooks?, keepVisible? } → 200 { subscription: { tier, status, trialEndsAt } }
//        409 when the subscription has ended (reactivate first); 409 books_would_be_hidden (the
//        message says how many) when the plan shows fewer books than readers see now and neither
//        keepVisible (the books that stay shown) nor confirmHiddenBooks (keep the first ones in
//        the author's order) was sent. keepVisible: 404 for a book that is not the author's, 400
//        for more than the plan shows.
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
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  changePlanSchema,
  checkoutSchema,
  emptySchema,
  subscriptionDetailsSchema,
  subscriptionViewSchema,
} from "../../../shared/schemas/billing.ts";
import type { AppDeps, AppVars } from "../../http/context.ts";
import { errorBody, HttpError, invalidJson, parseWith } from "../../http/errors.ts";
import { answer } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { alertStaff } from "../staff/staff-alerts.service.ts";
import {
  cancelSubscription,
  changePlan,
  getSubscriptionDetails,
  openPortal,
  reactivateSubscription,
  type SubscriptionView,
  startCheckout,
} from "./billing.service.ts";
import { processBillingEvents } from "./billing-events.service.ts";
import { assertDowngradeConfirmed } from "./downgrade.ts";
import { billingProviderFor, WebhookSignatureError } from "./provider.ts";

/** No body, an empty body or `{}` are all fine for the action endpoints; anything else is not. */
async function readEmpty(c: Parameters<MiddlewareHandler<AppVars>>[0]) {
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
const emptyBody: MiddlewareHandler<AppVars> = async (c, next) => {
  await readEmpty(c);
  await next();
};

/** Dates leave as ISO strings, as the declared answers say. */
const iso = (d: Date | null) => d?.toISOString() ?? null;
const viewOut = (v: SubscriptionView) => ({ ...v, trialEndsAt: iso(v.trialEndsAt) });

/** Checkout's own words for a signed-out visitor (the pricing page shows them). */
const signedInToSubscribe: MiddlewareHandler<AppVars> = async (c, next) => {
  await requireUser(c).catch(() => {
    throw new HttpError(401, "Please log in to subscribe");
  });
  await next();
};

const route = routes({ tags: ["Billing"] });
const subscriptionAnswer = json(z.object({ subscription: subscriptionViewSchema }), "The subscription now");
const urlAnswer = json(z.object({ url: z.string() }), "Open this address");

const status = route.get("/subscription/status", {
  summary: "The plan, its status, currency, period end and payment state (no subscription: mini/trial)",
  ok: { 200: json(subscriptionDetailsSchema, "The subscription") },
});
const checkout = route.post("/billing/checkout", {
  summary: "Start (or resume) the payment step",
  public: true,
  middleware: [signedInToSubscribe],
  body: checkoutSchema,
  ok: { 200: urlAnswer },
  errors: [401, 502],
});
// The actions without input: `emptyBody` answers 400 for a body that is not empty.
const portal = route.post("/billing/portal", {
  summary: "Manage card, plan and cancellation at the provider (no input)",
  middleware: [emptyBody],
  ok: { 200: urlAnswer },
  errors: [400, 404, 409],
});
const changePlanRoute = route.post("/billing/change-plan", {
  summary: "Change plan; a plan that would hide books needs keepVisible (the books that stay) or confirmHiddenBooks",
  body: changePlanSchema,
  ok: { 200: subscriptionAnswer },
  errors: [404, 409],
});
const cancel = route.post("/billing/cancel", {
  summary: "Cancel: the site stays live to the end of the paid period (no input)",
  middleware: [emptyBody],
  ok: { 200: subscriptionAnswer },
  errors: [400, 404, 409],
});
const reactivate = route.post("/billing/reactivate", {
  summary: "Resume a cancelled subscription, or get a checkout for an expired one (no input)",
  middleware: [emptyBody],
  ok: {
    200: json(
      z.object({ subscription: subscriptionViewSchema, checkoutUrl: z.string().nullable() }),
      "Resumed, or pay here",
    ),
  },
  errors: [400, 404, 409],
});
const webhook = route.post("/webhooks/stripe", {
  summary: "Stripe's events, signed (the raw body is verified, so it is not parsed here)",
  public: true,
  ok: {
    200: json(
      z.object({ received: z.boolean(), applied: z.number(), unprocessable: z.number() }),
      "Acknowledged (events that can never apply are recorded and mailed to staff)",
    ),
  },
  errors: [400, 404, 500],
});

/** The request's database, the configured payment provider and the app's origin. */
function billing(c: { get(key: "deps"): AppDeps }) {
  const { database, env } = c.get("deps");
  return { db: database.db, provider: billingProviderFor(env), appOrigin: env.appOrigin };
}

export function billingRoutes() {
  return apiRouter()
    .openapi(
      ...answer(status, async (c, me) => {
        const d = await getSubscriptionDetails(c.get("deps").database.db, me.id);
        return { ...d, trialEndsAt: iso(d.trialEndsAt), currentPeriodEnd: iso(d.currentPeriodEnd) };
      }),
    )
    .openapi(
      ...answer(checkout, (c, me) => {
        const { db, provider, appOrigin } = billing(c);
        return startCheckout(db, provider, appOrigin, me, c.req.valid("json"));
      }),
    )
    .openapi(
      ...answer(portal, (c, me) => {
        const { db, provider, appOrigin } = billing(c);
        return openPortal(db, provider, appOrigin, me.id);
      }),
    )
    .openapi(
      ...answer(changePlanRoute, async (c, me) => {
        const { tier, confirmHiddenBooks, keepVisible } = c.req.valid("json");
        const { db, provider } = billing(c);
        await assertDowngradeConfirmed(db, me.id, tier, confirmHiddenBooks === true, keepVisible);
        return { subscription: viewOut(await changePlan(db, provider, me.id, tier, new Date(), keepVisible)) };
      }),
    )
    .openapi(
      ...answer(cancel, async (c, me) => {
        const { db, provider } = billing(c);
        return { subscription: viewOut(await cancelSubscription(db, provider, me.id)) };
      }),
    )
    .openapi(
      ...answer(reactivate, async (c, me) => {
        const { db, provider, appOrigin } = billing(c);
        const r = await reactivateSubscription(db, provider, appOrigin, me);
        return { subscription: viewOut(r.subscription), checkoutUrl: r.checkoutUrl };
      }),
    )
    .openapi(webhook, async (c) => {
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
        return c.json({ received: true, applied, unprocessable: unprocessable.length }, 200);
      } catch (err) {
        logger.error({ err, events: events.map((e) => e.id) }, "processing a Stripe webhook failed");
        return c.json(errorBody("internal_error", "Webhook processing failed"), 500);
      }
    });
}
