// Subscriptions as the rest of the server sees them.
import type { Db, Tx } from "../../../db/client.ts";
import { CHECKOUT_CANCELLED_PATH } from "../../../shared/app-routes.ts";
import type { Currency, SubscriptionStatus, Tier } from "../../../shared/enums.ts";
import { CURRENCIES, SUBSCRIPTION_STATUSES } from "../../../shared/enums.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, isTier } from "../../../shared/plans.ts";
import { conflictError, DomainError, notFoundError } from "../../lib/domain-error.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import * as q from "./billing.queries.ts";
import type { BillingProvider } from "./provider.ts";
import { priceOf, renewSandboxSubscriptions, sandboxProration } from "./sandbox-billing.service.ts";
import { addMonth, fitBooks, remainingTrialDays } from "./subscription-terms.ts";

export type SubscriptionView = { tier: Tier; status: SubscriptionStatus; trialEndsAt: Date | null };

/** The author's plan; no row yet reads as the spec's defaults (mini, trial). */
export async function getSubscription(db: Db | Tx, userId: string): Promise<SubscriptionView> {
  return viewOf(await q.findSubscription(db, userId));
}

function viewOf(row: SubscriptionRow | null): SubscriptionView {
  const status = (SUBSCRIPTION_STATUSES as readonly string[]).includes(row?.status ?? "")
    ? (row?.status as SubscriptionStatus)
    : "trial";
  return { tier: tierOf(row?.tier), status, trialEndsAt: row?.trialEndsAt ?? null };
}

/** The plan a stored tier stands for: none, or one no longer offered, is Mini. */
export function tierOf(stored: string | null | undefined): Tier {
  return isTier(stored) ? stored : "mini";
}

export type SubscriptionDetails = SubscriptionView & {
  currency: Currency;
  /** Cancelled: the site stays live until then. Active: the next renewal. */
  currentPeriodEnd: Date | null;
  customDomainAddon: boolean;
  /** Card details taken (a checkout completed); false until the author finishes the payment step. */
  checkoutCompleted: boolean;
};

/** What the dashboard shows: the check-subscription answer plus currency, period end and payment state. */
export async function getSubscriptionDetails(db: Db | Tx, userId: string): Promise<SubscriptionDetails> {
  const row = await q.findSubscription(db, userId);
  const view = viewOf(row);
  const currency = (CURRENCIES as readonly string[]).includes(row?.currency ?? "")
    ? (row?.currency as Currency)
    : "GBP";
  return {
    ...view,
    currency,
    currentPeriodEnd: row?.currentPeriodEnd ?? null,
    customDomainAddon: row?.customDomainAddon ?? false,
    checkoutCompleted: Boolean(row?.providerSubscriptionId),
  };
}

// ---------------------------------------------------------------------------------------------
// Subscription life cycle: checkout, plan changes, cancellation and expiry. The
// provider's webhooks are in billing-events.service.ts, the sandbox's payments in
// sandbox-billing.service.ts, invoices and exchange rates in invoices.service.ts.

export type SubscriptionRow = q.SubscriptionRow;

export const getSubscriptionRow = q.findSubscription;

export async function startCheckout(
  db: Db,
  provider: BillingProvider,
  appOrigin: string,
  user: { id: string; email: string },
  choice: { tier: Tier; currency: Currency; customDomain?: boolean },
): Promise<{ url: string }> {
  const row = await getSubscriptionRow(db, user.id);
  return provider.createCheckout({
    userId: user.id,
    email: user.email,
    tier: choice.tier,
    currency: choice.currency,
    customDomain: choice.customDomain ?? row?.customDomainAddon ?? false,
    successUrl: `${appOrigin}/dashboard?success=true`,
    // The dashboard says that nothing was charged and what readers see until a card is added.
    cancelUrl: `${appOrigin}${CHECKOUT_CANCELLED_PATH}`,
    trialDays: remainingTrialDays(row),
    customerId: row?.provider === provider.name ? row.providerCustomerId : null,
  });
}

const noSubscription = () => notFoundError("No subscription found. Please complete onboarding first.");

/** `keepVisible`: the books the author chose to keep showing when the new plan shows fewer (ADR 054). */
export async function changePlan(
  db: Db,
  provider: BillingProvider,
  userId: string,
  tier: Tier,
  now = new Date(),
  keepVisible?: readonly string[],
) {
  const row = await getSubscriptionRow(db, userId);
  if (!row) throw noSubscription();
  if (row.status === "expired")
    throw new DomainError("subscription_ended", "Your subscription has ended. Please reactivate it first.");
  if (row.tier === tier) return getSubscription(db, userId);
  if (row.provider === provider.name && provider.name === "stripe" && row.providerSubscriptionId) {
    await provider.changePlan({
      subscriptionId: row.providerSubscriptionId,
      tier,
      currency: row.currency as Currency,
      customDomain: row.customDomainAddon,
    });
  }
  // A smaller plan hides books at once: the ones the author did not choose to keep.
  return db.transaction(async (tx) => {
    const locked = await q.findSubscriptionForUpdate(tx, userId);
    const prorated =
      locked && provider.name === "sandbox" && isTier(locked.tier)
        ? sandboxProration(locked, priceOf(locked.tier, locked), priceOf(tier, locked), now)
        : null;
    const saved = await q.updateSubscription(tx, userId, { tier, updatedAt: now, ...prorated });
    await fitBooks(tx, userId, locked?.tier, tier, keepVisible);
    await markSiteChanged(tx, userId);
    return viewOf(saved);
  });
}

/**
 * The custom-domain add-on follows the domain: on when the author adds one, off when they remove
 * it (the provider prorates). Without a card yet, only our record changes: checkout then
 * charges what the record says.
 */
export async function setCustomDomainAddon(
  db: Db,
  provider: BillingProvider,
  userId: string,
  on: boolean,
  now = new Date(),
) {
  const row = await getSubscriptionRow(db, userId);
  if (!row || row.customDomainAddon === on) return;
  if (
    row.provider === "stripe" &&
    provider.name === "stripe" &&
    row.providerSubscriptionId &&
    row.status !== "expired"
  ) {
    await provider.setCustomDomainAddon({
      subscriptionId: row.providerSubscriptionId,
      currency: row.currency as Currency,
      on,
    });
  }
  await db.transaction(async (tx) => {
    const locked = await q.findSubscriptionForUpdate(tx, userId);
    if (!locked || locked.customDomainAddon === on) return;
    const addon = CUSTOM_DOMAIN_ADDON_MINOR[locked.currency as Currency] ?? 0;
    const prorated = provider.name === "sandbox" ? sandboxProration(locked, on ? 0 : addon, on ? addon : 0, now) : null;
    await q.updateSubscription(tx, userId, { customDomainAddon: on, updatedAt: now, ...prorated });
  });
}

/** Cancelling keeps the site live to the end of what was paid for (or of the trial). */
export async function cancelSubscription(db: Db, provider: BillingProvider, userId: string, now = new Date()) {
  const row = await getSubscriptionRow(db, userId);
  if (!row) throw noSubscription();
  if (row.status === "cancelled") throw conflictError("Your subscription is already cancelled.");
  if (row.status === "expired") throw new DomainError("subscription_ended", "Your subscription has already ended.");
  if (row.provider === "stripe" && provider.name === "stripe" && row.providerSubscriptionId) {
    await provider.cancel({ subscriptionId: row.providerSubscriptionId });
  }
  const liveUntil =
    row.status === "trial" ? (row.trialEndsAt ?? now) : (row.currentPeriodEnd ?? row.trialEndsAt ?? addMonth(now));
  return db.transaction(async (tx) => {
    const saved = await q.updateSubscription(tx, userId, {
      status: "cancelled",
      cancelAtPeriodEnd: true,
      currentPeriodEnd: liveUntil,
      updatedAt: now,
    });
    await markSiteChanged(tx, userId);
    return viewOf(saved);
  });
}

/**
 * A cancelled subscription resumes as it was; an expired one needs a new checkout, whose
 * address is returned for the author to pay.
 */
export async function reactivateSubscription(
  db: Db,
  provider: BillingProvider,
  appOrigin: string,
  user: { id: string; email: string },
  now = new Date(),
): Promise<{ subscription: SubscriptionView; checkoutUrl: string | null }> {
  const row = await getSubscriptionRow(db, user.id);
  if (!row) throw noSubscription();
  if (row.status === "expired") {
    const { url } = await startCheckout(db, provider, appOrigin, user, {
      tier: row.tier as Tier,
      currency: row.currency as Currency,
    });
    return { subscription: await getSubscription(db, user.id), checkoutUrl: url };
  }
  if (row.status !== "cancelled") throw conflictError("Your subscription is already active.");
  if (row.provider === "stripe" && provider.name === "stripe" && row.providerSubscriptionId) {
    await provider.reactivate({ subscriptionId: row.providerSubscriptionId });
  }
  const status = row.trialEndsAt && row.trialEndsAt > now ? "trial" : "active";
  return db.transaction(async (tx) => {
    const saved = await q.updateSubscription(tx, user.id, { status, cancelAtPeriodEnd: false, updatedAt: now });
    await markSiteChanged(tx, user.id);
    return { subscription: viewOf(saved), checkoutUrl: null };
  });
}

export async function openPortal(db: Db, provider: BillingProvider, appOrigin: string, userId: string) {
  const row = await getSubscriptionRow(db, userId);
  if (!row) throw noSubscription();
  if (provider.name === "stripe" && (row.provider !== "stripe" || !row.providerCustomerId)) {
    throw new DomainError("checkout_required", "Please complete checkout before managing your subscription.");
  }
  return provider.createPortal({ userId, customerId: row.providerCustomerId, returnUrl: `${appOrigin}/dashboard` });
}

// --- expiry ---------------------------------------------------------------------------------

/**
 * Trials that ended without a completed checkout, and cancelled subscriptions whose paid time
 * is over, become expired (site offline, data kept). A sandbox trial with a completed checkout
 * turns active instead, as Stripe would after charging the card; Stripe's own trials are left
 * to its webhooks.
 */
export async function expireDueSubscriptions(db: Db | Tx, now = new Date()) {
  const trialsEnded = await q.expireEndedTrialsWithoutCheckout(db, now);
  const sandbox = await renewSandboxSubscriptions(db, now);
  const cancelledEnded = await q.expireEndedCancellations(db, now);
  // An expired site goes offline at once, not when its cached pages age out.
  for (const { userId } of [...trialsEnded, ...cancelledEnded]) await markSiteChanged(db, userId);
  return {
    trialsExpired: trialsEnded.length,
    trialsConverted: sandbox.trialsConverted,
    sandboxRenewals: sandbox.renewals,
    cancelledExpired: cancelledEnded.length,
  };
}
