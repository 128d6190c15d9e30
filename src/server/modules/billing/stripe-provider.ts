// The Stripe billing provider (ADR 008). Its own module, so the Stripe SDK is loaded only when
// Stripe keys are configured, on the first billing call (ADR 037): the sandbox never loads it.
import Stripe from "stripe";
import type { Currency, Tier } from "../../../shared/enums.ts";
import { CURRENCIES } from "../../../shared/enums.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, isTier, MONTHLY_PRICE_MINOR, PLANS, TRIAL_DAYS } from "../../../shared/plans.ts";
import {
  ADDON_PRODUCT,
  type BillingProvider,
  type SubscriptionSnapshot,
  WebhookSignatureError,
} from "./provider-types.ts";

function lineItems(tier: Tier, currency: Currency, customDomain: boolean) {
  const items: Stripe.Checkout.SessionCreateParams.LineItem[] = [
    {
      quantity: 1,
      price_data: {
        currency: currency.toLowerCase(),
        unit_amount: MONTHLY_PRICE_MINOR[tier][currency],
        recurring: { interval: "month" },
        product_data: { name: `Bookplate ${PLANS[tier].name} (${PLANS[tier].range})` },
      },
    },
  ];
  if (customDomain) {
    items.push({
      quantity: 1,
      price_data: {
        currency: currency.toLowerCase(),
        unit_amount: CUSTOM_DOMAIN_ADDON_MINOR[currency],
        recurring: { interval: "month" },
        product: ADDON_PRODUCT,
      },
    });
  }
  return items;
}

const toDate = (unix: unknown) => (typeof unix === "number" ? new Date(unix * 1000) : null);
const idOf = (v: unknown): string | null =>
  typeof v === "string" ? v : v && typeof v === "object" && "id" in v ? String((v as { id: unknown }).id) : null;

/** API versions from 2025 name an invoice's subscription under `parent`; older ones at the top. */
function invoiceSubscriptionId(inv: Record<string, unknown>): string | null {
  const parent = inv.parent as { subscription_details?: { subscription?: unknown } } | undefined;
  return idOf(parent?.subscription_details?.subscription ?? inv.subscription);
}

export function snapshotOf(sub: Stripe.Subscription): SubscriptionSnapshot {
  const loose = sub as unknown as Record<string, unknown>;
  const item = sub.items?.data?.[0] as unknown as Record<string, unknown> | undefined;
  const meta = sub.metadata ?? {};
  const currency = (meta.currency ?? sub.currency ?? "").toUpperCase();
  return {
    id: sub.id,
    customerId: idOf(sub.customer),
    status: sub.status,
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    // API versions from 2025 keep the period on the item; older ones on the subscription.
    currentPeriodEnd: toDate(item?.current_period_end ?? loose.current_period_end),
    trialEnd: toDate(sub.trial_end),
    userId: meta.userId ?? null,
    tier: isTier(meta.tier) ? meta.tier : null,
    currency: (CURRENCIES as readonly string[]).includes(currency) ? (currency as Currency) : null,
    customDomain: meta.customDomain === undefined ? null : meta.customDomain === "true",
  };
}

const isAddonItem = (item: Stripe.SubscriptionItem) => idOf(item.price.product) === ADDON_PRODUCT;

export function stripeProvider(opts: {
  secretKey: string;
  webhookSecret: string;
  api?: { host?: string; port?: number; protocol?: "http" | "https" };
}): BillingProvider & { stripe: Stripe } {
  const stripe = new Stripe(opts.secretKey, { ...opts.api, maxNetworkRetries: 1, timeout: 20_000 });

  async function snapshot(id: string | null): Promise<SubscriptionSnapshot | null> {
    if (!id) return null;
    try {
      return snapshotOf(await stripe.subscriptions.retrieve(id));
    } catch (err) {
      // Stripe no longer (or never) had it: nothing live to apply. Anything else is worth a retry.
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
      throw err;
    }
  }

  let addonReady: Promise<string> | undefined;
  /** The add-on's product, created the first time it is needed (its id is fixed, so once). */
  function addonProduct(): Promise<string> {
    addonReady ??= (async () => {
      try {
        await stripe.products.retrieve(ADDON_PRODUCT);
      } catch (err) {
        if (!(err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404)) throw err;
        await stripe.products.create({ id: ADDON_PRODUCT, name: "Bookplate custom domain" });
      }
      return ADDON_PRODUCT;
    })().catch((err) => {
      addonReady = undefined;
      throw err;
    });
    return addonReady;
  }

  return {
    name: "stripe",
    stripe,
    async createCheckout(input) {
      if (input.customDomain) await addonProduct();
      const trialDays = input.trialDays ?? TRIAL_DAYS;
      const meta = {
        userId: input.userId,
        tier: input.tier,
        currency: input.currency,
        customDomain: String(input.customDomain),
      };
      const session = await stripe.checkout.sessions.create({
        mode: "subscription",
        client_reference_id: input.userId,
        ...(input.customerId ? { customer: input.customerId } : { customer_email: input.email }),
        line_items: lineItems(input.tier, input.currency, input.customDomain),
        payment_method_collection: "always",
        // Stripe refuses trials shorter than 1 day; a returning subscriber pays from today.
        subscription_data: { metadata: meta, ...(trialDays >= 1 ? { trial_period_days: trialDays } : {}) },
        metadata: { userId: input.userId, tier: input.tier, currency: input.currency },
        success_url: `${input.successUrl}${input.successUrl.includes("?") ? "&" : "?"}session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: input.cancelUrl,
      });
      if (!session.url) throw new Error("Stripe returned a checkout session without a url");
      return { url: session.url };
    },
    async createPortal(input) {
      if (!input.customerId) throw new Error("No Stripe customer for this user yet");
      const portal = await stripe.billingPortal.sessions.create({
        customer: input.customerId,
        return_url: input.returnUrl,
      });
      return { url: portal.url };
    },
    async changePlan(input) {
      const sub = await stripe.subscriptions.retrieve(input.subscriptionId);
      const planItem = sub.items.data.find((i) => !isAddonItem(i));
      if (!planItem) throw new Error("Stripe subscription has no items");
      await stripe.subscriptions.update(input.subscriptionId, {
        items: [
          {
            id: planItem.id,
            price_data: {
              currency: input.currency.toLowerCase(),
              product: idOf(planItem.price.product) ?? "",
              unit_amount: MONTHLY_PRICE_MINOR[input.tier][input.currency],
              recurring: { interval: "month" },
            },
          },
        ],
        metadata: { tier: input.tier },
        proration_behavior: "create_prorations",
      });
    },
    async setCustomDomainAddon(input) {
      const sub = await stripe.subscriptions.retrieve(input.subscriptionId);
      const addon = sub.items.data.find(isAddonItem);
      if (input.on && !addon) {
        await stripe.subscriptionItems.create({
          subscription: input.subscriptionId,
          quantity: 1,
          price_data: {
            currency: input.currency.toLowerCase(),
            product: await addonProduct(),
            unit_amount: CUSTOM_DOMAIN_ADDON_MINOR[input.currency],
            recurring: { interval: "month" },
          },
          proration_behavior: "create_prorations",
        });
      }
      if (!input.on && addon) {
        await stripe.subscriptionItems.del(addon.id, { proration_behavior: "create_prorations" });
      }
    },
    async cancel(input) {
      await stripe.subscriptions.update(input.subscriptionId, { cancel_at_period_end: true });
    },
    async cancelNow(input) {
      try {
        await stripe.subscriptions.cancel(input.subscriptionId);
      } catch (err) {
        // Already gone at Stripe (ended, or deleted there): nothing left to stop.
        if ((err as { code?: string }).code === "resource_missing") return;
        throw err;
      }
    },
    async reactivate(input) {
      await stripe.subscriptions.update(input.subscriptionId, { cancel_at_period_end: false });
    },
    async parseWebhook(rawBody, signature) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature ?? "", opts.webhookSecret);
      } catch (err) {
        throw new WebhookSignatureError((err as Error).message);
      }
      const base = { id: event.id, type: event.type, created: new Date(event.created * 1000) };
      switch (event.type) {
        case "checkout.session.completed": {
          const s = event.data.object;
          return [
            {
              ...base,
              kind: "checkout_completed",
              userId: s.client_reference_id ?? s.metadata?.userId ?? null,
              customerId: idOf(s.customer),
              subscription: await snapshot(idOf(s.subscription)),
            },
          ];
        }
        case "customer.subscription.created":
        case "customer.subscription.updated":
        case "customer.subscription.deleted": {
          // The event may be older than what Stripe holds now; the live object is the truth.
          const live = await snapshot(event.data.object.id);
          return live ? [{ ...base, kind: "subscription_changed", subscription: live }] : [];
        }
        // Invoice events say what happened to one payment; the subscription's status after it is
        // read live, like the subscription events, so a paid invoice arriving after a failed one
        // (or the other way round) leaves the status Stripe holds now.
        case "invoice.paid": {
          const inv = event.data.object as unknown as Record<string, unknown>;
          const subscriptionId = invoiceSubscriptionId(inv);
          return [
            {
              ...base,
              kind: "invoice_paid",
              invoiceId: String(inv.id),
              subscriptionId,
              customerId: idOf(inv.customer),
              currency: String(inv.currency ?? "").toUpperCase(),
              amountMinor: Number(inv.amount_paid ?? 0),
              subscription: await snapshot(subscriptionId),
            },
          ];
        }
        case "invoice.payment_failed": {
          const subscriptionId = invoiceSubscriptionId(event.data.object as unknown as Record<string, unknown>);
          return [{ ...base, kind: "payment_failed", subscriptionId, subscription: await snapshot(subscriptionId) }];
        }
        default:
          return [{ ...base, kind: "ignored" }];
      }
    },
  };
}
