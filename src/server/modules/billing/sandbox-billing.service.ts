// The sandbox provider's payments (ADR 045): a fake card at checkout, and the invoices Stripe
// would charge. Stripe charges the card when a trial ends and at every renewal, and adds
// prorations for a mid-period change to the next invoice; its webhooks then book each paid
// invoice. The sandbox has no Stripe, so the expiry job plays its clock and the same booking
// function records what Stripe would have charged.
import type { Db, Tx } from "../../../db/client.ts";
import type { Currency, Tier } from "../../../shared/enums.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, isTier, MONTHLY_PRICE_MINOR, TRIAL_DAYS } from "../../../shared/plans.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import * as q from "./billing.queries.ts";
import { recordPaidInvoice } from "./invoices.service.ts";
import {
  addMonth,
  addMonths,
  DAY_MS,
  fitBooks,
  remainingTrialDays,
  type SubscriptionRow,
} from "./subscription-terms.ts";

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

/** Longest run of missed periods one job run charges (a server off for years). */
const MAX_PERIODS_AT_ONCE = 36;
/** What the subscription's plan (and add-on) costs a month, in its own currency. */
export function priceOf(tier: Tier, row: { currency: string; customDomainAddon: boolean }): number {
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
export function sandboxProration(
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

export async function renewSandboxSubscriptions(db: Db | Tx, now: Date) {
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
