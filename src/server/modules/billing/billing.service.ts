// Subscriptions as the rest of the server sees them.
import type { Db, Tx } from "../../../db/client.ts";
import { CHECKOUT_CANCELLED_PATH } from "../../../shared/app-routes.ts";
import type { Currency, SubscriptionStatus, Tier } from "../../../shared/enums.ts";
import { CURRENCIES, SUBSCRIPTION_STATUSES } from "../../../shared/enums.ts";
import {
  bookLimit,
  CUSTOM_DOMAIN_ADDON_MINOR,
  isTier,
  MONTHLY_PRICE_MINOR,
  TRIAL_DAYS,
} from "../../../shared/plans.ts";
import { conflictError, DomainError, notFoundError } from "../../lib/domain-error.ts";
import { convertMinor } from "../admin/money.ts";
import { fitBooksToPlan } from "../books/plan-visibility.service.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import * as q from "./billing.queries.ts";
import type { BillingEvent, BillingProvider, SubscriptionSnapshot } from "./provider.ts";

export type SubscriptionView = { tier: Tier; status: SubscriptionStatus; trialEndsAt: Date | null };

/** The author's plan; no row yet reads as the spec's defaults (mini, trial). */
export async function getSubscription(db: Db | Tx, userId: string): Promise<SubscriptionView> {
  return viewOf(await q.findSubscription(db, userId));
}

function viewOf(row: SubscriptionRow | null): SubscriptionView {
  const status = (SUBSCRIPTION_STATUSES as readonly string[]).includes(row?.status ?? "")
    ? (row?.status as SubscriptionStatus)
    : "trial";
  return { tier: isTier(row?.tier) ? row.tier : "mini", status, trialEndsAt: row?.trialEndsAt ?? null };
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
// Subscription life cycle: checkout, plan changes, cancellation, webhooks and expiry.

export type SubscriptionRow = q.SubscriptionRow;

const DAY_MS = 24 * 60 * 60 * 1000;

export const getSubscriptionRow = q.findSubscription;

/** `n` calendar months on (or back), the day kept or clamped to the month's last (31 Jan → 28 Feb). */
function addMonths(d: Date, n: number): Date {
  const out = new Date(d);
  const day = out.getUTCDate();
  out.setUTCDate(1);
  out.setUTCMonth(out.getUTCMonth() + n);
  const last = new Date(Date.UTC(out.getUTCFullYear(), out.getUTCMonth() + 1, 0)).getUTCDate();
  out.setUTCDate(Math.min(day, last));
  return out;
}
const addMonth = (d: Date) => addMonths(d, 1);

/** Trial days still owed to this author: the full trial before any, none once it is used up. */
export function remainingTrialDays(row: SubscriptionRow | null, now = new Date()): number {
  if (!row) return TRIAL_DAYS;
  if (row.status !== "trial" || !row.trialEndsAt) return 0;
  // Part of a day counts as a day (a trial started a moment ago still owes all 14); a minute's
  // slack keeps the clock between onboarding and checkout from rounding up to 15.
  const left = Math.ceil((row.trialEndsAt.getTime() - now.getTime() - 60_000) / DAY_MS);
  return Math.max(0, Math.min(TRIAL_DAYS, left));
}

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

/** Whether a sandbox checkout now is paid at once (no trial left) rather than starting a trial. */
export function sandboxCheckoutChargesNow(row: SubscriptionRow | null, now = new Date()): boolean {
  if (!row) return false;
  if (row.status === "expired" || row.status === "cancelled") return true;
  return row.status === "trial" && !row.providerSubscriptionId && remainingTrialDays(row, now) === 0;
}

/**
 * The sandbox's "payment": the author entered a (fake) card. A first subscription or a running
 * trial stays a trial; a cancelled or expired one (or a trial that ran out before the card came)
 * is paid for at once, as Stripe charges a checkout with no trial days left, and becomes active.
 */
export async function completeSandboxCheckout(
  db: Db,
  userId: string,
  choice: { tier: Tier; currency: Currency; customDomain: boolean },
  now = new Date(),
): Promise<SubscriptionRow> {
  return db.transaction(async (tx) => {
    const row = await q.findSubscriptionForUpdate(tx, userId);
    const restart = sandboxCheckoutChargesNow(row, now);
    const values = {
      tier: choice.tier,
      currency: choice.currency,
      customDomainAddon: choice.customDomain,
      provider: "sandbox",
      providerCustomerId: `sbx_cus_${userId}`,
      providerSubscriptionId: `sbx_sub_${userId}`,
      cancelAtPeriodEnd: false,
      updatedAt: now,
      ...(restart
        ? { status: "active", currentPeriodEnd: addMonth(now) }
        : {
            status: row?.status ?? "trial",
            trialEndsAt: row?.trialEndsAt ?? new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
          }),
    };
    let saved = await q.upsertSubscription(tx, userId, values);
    await fitBooks(tx, userId, row?.tier, choice.tier);
    if (restart) {
      const balance = await chargeSandboxPeriod(tx, saved, now);
      saved = (await q.updateSubscription(tx, userId, { sandboxBalanceMinor: balance })) ?? saved;
    }
    await markSiteChanged(tx, userId);
    return saved;
  });
}

/** The limit a stored tier stands for; none or an unknown one reads as mini, as everywhere. */
const limitOf = (tier: string | null | undefined) => bookLimit(isTier(tier) ? tier : "mini");

/**
 * Every write of a tier goes through here, in the same transaction: the books readers see are
 * fitted to the new plan (ADR 054), the author's chosen ones kept when they chose.
 */
async function fitBooks(
  tx: Tx,
  userId: string,
  before: string | null | undefined,
  after: string | null | undefined,
  keepVisible?: readonly string[],
) {
  await fitBooksToPlan(tx, userId, { limit: limitOf(after), previousLimit: limitOf(before), keepVisible });
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

// --- exchange rates -------------------------------------------------------------------------

/** Fixed starting rates to GBP; staff may update the table, these only fill an empty one. */
export const DEFAULT_RATES_TO_GBP: Record<Currency, number> = {
  GBP: 1,
  USD: 0.79,
  EUR: 0.85,
  CAD: 0.57,
  AUD: 0.52,
};

export async function seedExchangeRates(db: Db | Tx) {
  await q.insertDefaultRates(db, Object.entries(DEFAULT_RATES_TO_GBP) as [Currency, number][]);
}

async function toGbpMinor(tx: Db | Tx, currency: Currency, amountMinor: number): Promise<number> {
  if (currency === "GBP") return amountMinor;
  await seedExchangeRates(tx);
  const rate = await q.findRateToGbp(tx, currency);
  return convertMinor(amountMinor, rate ?? String(DEFAULT_RATES_TO_GBP[currency]));
}

/**
 * A paid invoice becomes one `transactions` row, its GBP amount at the stored rate; the same
 * invoice again is the same row. Stripe's `invoice.paid` and the sandbox's own invoices both
 * come through here, so either provider books the same rows (ADR 045).
 */
export async function recordPaidInvoice(
  tx: Db | Tx,
  sub: { userId: string; tier: string },
  invoice: { invoiceId: string; currency: string; amountMinor: number; paidAt: Date },
) {
  if (invoice.amountMinor <= 0) return;
  const currency = (CURRENCIES as readonly string[]).includes(invoice.currency) ? (invoice.currency as Currency) : null;
  if (!currency) {
    throw new UnprocessableBillingEvent(
      `invoice ${invoice.invoiceId} is in a currency we do not sell in (${invoice.currency})`,
    );
  }
  await q.insertTransaction(tx, {
    userId: sub.userId,
    subscriptionTier: sub.tier,
    currency,
    amountMinor: invoice.amountMinor,
    amountGbpMinor: await toGbpMinor(tx, currency, invoice.amountMinor),
    providerInvoiceId: invoice.invoiceId,
    processedAt: invoice.paidAt,
  });
}

// --- webhooks -------------------------------------------------------------------------------

/** Our state for a provider status; 'cancel at period end' is our 'cancelled'. */
export function statusFromStripe(s: SubscriptionSnapshot): SubscriptionStatus {
  if ((s.status === "trialing" || s.status === "active") && s.cancelAtPeriodEnd) return "cancelled";
  switch (s.status) {
    case "trialing":
      return "trial";
    case "active":
      return "active";
    case "past_due":
    case "unpaid":
    case "incomplete":
      return "past_due";
    default:
      return "expired";
  }
}

async function applySnapshot(tx: Tx, snap: SubscriptionSnapshot, fallbackUserId: string | null, now: Date) {
  const byProvider = await q.findSubscriptionByProviderId(tx, snap.id);
  const userId = byProvider?.userId ?? fallbackUserId ?? snap.userId;
  if (!userId) return;
  if (!(await q.userExists(tx, userId))) return;
  if (!byProvider) {
    // The end of an earlier Stripe subscription must not overwrite the one that replaced it.
    const current = await q.findSubscription(tx, userId);
    if (
      current?.providerSubscriptionId &&
      current.providerSubscriptionId !== snap.id &&
      statusFromStripe(snap) === "expired"
    ) {
      return;
    }
  }
  const values = {
    status: statusFromStripe(snap),
    provider: "stripe",
    providerSubscriptionId: snap.id,
    ...(snap.customerId ? { providerCustomerId: snap.customerId } : {}),
    ...(snap.tier ? { tier: snap.tier } : {}),
    ...(snap.currency ? { currency: snap.currency } : {}),
    ...(snap.customDomain !== null ? { customDomainAddon: snap.customDomain } : {}),
    trialEndsAt: snap.trialEnd,
    currentPeriodEnd: snap.currentPeriodEnd,
    cancelAtPeriodEnd: snap.cancelAtPeriodEnd,
    updatedAt: now,
  };
  const before = byProvider ?? (await q.findSubscription(tx, userId));
  await q.upsertSubscriptionFields(tx, userId, values);
  if (snap.tier) await fitBooks(tx, userId, before?.tier, snap.tier);
  await markSiteChanged(tx, userId);
}

/**
 * An event we can never apply, however often it is delivered: it is acknowledged (a 5xx would
 * make Stripe retry it for days), recorded as unprocessable, and staff are told.
 */
export class UnprocessableBillingEvent extends Error {}

async function applyEvent(tx: Tx, e: BillingEvent, now: Date) {
  switch (e.kind) {
    case "checkout_completed":
      if (e.subscription) await applySnapshot(tx, e.subscription, e.userId, now);
      else if (e.userId && e.customerId) {
        await q.updateSubscription(tx, e.userId, {
          provider: "stripe",
          providerCustomerId: e.customerId,
          updatedAt: now,
        });
      }
      return;
    case "subscription_changed":
      await applySnapshot(tx, e.subscription, null, now);
      return;
    case "invoice_paid": {
      if (!e.subscriptionId) return;
      // Stripe's live subscription names its owner even when the checkout event has not arrived yet.
      if (e.subscription) await applySnapshot(tx, e.subscription, null, now);
      const sub = await q.findSubscriptionByProviderId(tx, e.subscriptionId);
      if (!sub)
        throw new UnprocessableBillingEvent(
          `invoice ${e.invoiceId} is for an unknown subscription ${e.subscriptionId}`,
        );
      await recordPaidInvoice(tx, sub, {
        invoiceId: e.invoiceId,
        currency: e.currency,
        amountMinor: e.amountMinor,
        paidAt: e.created,
      });
      // Without Stripe's live state (it no longer has the subscription), a paid invoice at least
      // ends the dunning that a failed one started.
      if (!e.subscription && sub.status === "past_due") {
        await q.updateSubscription(tx, sub.userId, {
          status: sub.cancelAtPeriodEnd ? "cancelled" : "active",
          updatedAt: now,
        });
        await markSiteChanged(tx, sub.userId);
      }
      return;
    }
    case "payment_failed": {
      if (!e.subscriptionId) return;
      if (e.subscription) await applySnapshot(tx, e.subscription, null, now);
      const sub = await q.findSubscriptionByProviderId(tx, e.subscriptionId);
      if (!sub)
        throw new UnprocessableBillingEvent(`a failed payment is for an unknown subscription ${e.subscriptionId}`);
      if (!e.subscription && sub.status !== "expired") {
        // A late failure notice never revives an ended subscription.
        await q.updateSubscription(tx, sub.userId, { status: "past_due", updatedAt: now });
        await markSiteChanged(tx, sub.userId);
      }
      return;
    }
    case "ignored":
      return;
  }
}

export type UnprocessedEvent = { id: string; type: string; reason: string };

/**
 * Each event is applied once: its id goes into processed_webhook_events in the same
 * transaction as its effect, so a redelivery (or a concurrent duplicate) changes nothing.
 * A failure that a retry may cure (the database, Stripe's API) throws, the transaction rolls
 * back, and the caller answers 5xx for a retry. An event that can never apply is recorded as
 * unprocessable, changes nothing else, and is returned for the caller to report.
 */
export async function processBillingEvents(db: Db, events: BillingEvent[], provider: "stripe" | "sandbox") {
  let applied = 0;
  const unprocessable: UnprocessedEvent[] = [];
  for (const e of events) {
    try {
      await db.transaction(async (tx) => {
        if (!(await q.recordWebhookEvent(tx, { id: e.id, provider, type: e.type }))) return;
        await applyEvent(tx, e, new Date());
        applied++;
      });
    } catch (err) {
      if (!(err instanceof UnprocessableBillingEvent)) throw err;
      const recorded = await q.recordWebhookEvent(db, {
        id: e.id,
        provider,
        type: e.type,
        outcome: "unprocessable",
        detail: err.message,
      });
      if (recorded) unprocessable.push({ id: e.id, type: e.type, reason: err.message });
    }
  }
  return { applied, unprocessable };
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

// --- the sandbox's invoices -----------------------------------------------------------------
// Stripe charges the card when a trial ends and at every renewal, and adds prorations for a
// mid-period change to the next invoice; its webhooks then book each paid invoice. The sandbox
// has no Stripe, so the expiry job plays its clock and the same booking function records what
// Stripe would have charged (ADR 045).

/** Longest run of missed periods one job run charges (a server off for years). */
const MAX_PERIODS_AT_ONCE = 36;

/** What the subscription's plan (and add-on) costs a month, in its own currency. */
function priceOf(tier: Tier, row: { currency: string; customDomainAddon: boolean }): number {
  const currency = row.currency as Currency;
  return (
    (MONTHLY_PRICE_MINOR[tier]?.[currency] ?? 0) + (row.customDomainAddon ? CUSTOM_DOMAIN_ADDON_MINOR[currency] : 0)
  );
}

/**
 * A change of monthly price in a paid sandbox period, as Stripe prorates it: the old price for the
 * time left credited, the new one charged, each rounded, onto the next invoice. Nothing during a
 * trial (its price is nothing) or before a card; a change dated before the period (a test's clock)
 * counts the whole period.
 */
function sandboxProration(
  row: SubscriptionRow,
  oldMinor: number,
  newMinor: number,
  now: Date,
): { sandboxBalanceMinor: number } | null {
  const end = row.currentPeriodEnd;
  const paid = row.status === "active" || row.status === "cancelled";
  if (row.provider !== "sandbox" || !row.providerSubscriptionId || !paid || !end) return null;
  // A trial cancelled runs to its end with nothing paid.
  if (row.trialEndsAt && row.trialEndsAt >= end) return null;
  const period = end.getTime() - addMonths(end, -1).getTime();
  const left = Math.min(period, Math.max(0, end.getTime() - now.getTime()));
  const part = (minor: number) => Math.round((minor * left) / period);
  return { sandboxBalanceMinor: row.sandboxBalanceMinor + part(newMinor) - part(oldMinor) };
}

/** What the sandbox will charge next and when (its portal says so); null when nothing is due. */
export function sandboxNextPayment(row: SubscriptionRow): { amountMinor: number; at: Date } | null {
  if (row.provider !== "sandbox" || !row.providerSubscriptionId || !isTier(row.tier)) return null;
  const at = row.status === "trial" ? row.trialEndsAt : row.status === "active" ? row.currentPeriodEnd : null;
  if (!at) return null;
  return { amountMinor: Math.max(0, priceOf(row.tier, row) + row.sandboxBalanceMinor), at };
}

/**
 * The sandbox's invoice for the period starting `periodStart`: plan and add-on at the current
 * price plus the prorations carried, booked like a Stripe invoice (its id names the period, so
 * a period is charged once). A credit larger than the charge is carried on, as Stripe keeps a
 * customer balance. Returns the balance left.
 */
async function chargeSandboxPeriod(tx: Db | Tx, row: SubscriptionRow, periodStart: Date): Promise<number> {
  const total = (isTier(row.tier) ? priceOf(row.tier, row) : 0) + row.sandboxBalanceMinor;
  if (total <= 0) return total;
  await recordPaidInvoice(tx, row, {
    invoiceId: `sbx_in_${row.userId}_${periodStart.toISOString()}`,
    currency: row.currency,
    amountMinor: total,
    paidAt: periodStart,
  });
  return 0;
}

/** Ended sandbox trials with a card are charged and become active; ended periods renew. */
async function renewSandboxSubscriptions(db: Db | Tx, now: Date) {
  const due = await q.lockDueSandboxSubscriptions(db, now);
  let trialsConverted = 0;
  let renewals = 0;
  for (const row of due) {
    let start = row.status === "trial" ? row.trialEndsAt : row.currentPeriodEnd;
    if (!start) continue;
    if (row.status === "trial") trialsConverted++;
    let balance = row.sandboxBalanceMinor;
    for (let i = 0; start < now && i < MAX_PERIODS_AT_ONCE; i++) {
      balance = await chargeSandboxPeriod(db, { ...row, sandboxBalanceMinor: balance }, start);
      if (row.status === "active" || i > 0) renewals++;
      start = addMonth(start);
    }
    await q.updateSubscription(db, row.userId, {
      status: "active",
      currentPeriodEnd: start,
      sandboxBalanceMinor: balance,
      updatedAt: now,
    });
  }
  return { trialsConverted, renewals };
}
