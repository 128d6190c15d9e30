// The terms every subscription write shares: calendar months, the trial days still owed, and the
// books readers see fitted to a tier (ADR 054). Used by the subscription life cycle
// (billing.service.ts), the sandbox's payments (sandbox-billing.service.ts) and the provider's
// webhooks (billing-events.service.ts).
import type { Tx } from "../../../db/client.ts";
import { bookLimit, isTier, TRIAL_DAYS } from "../../../shared/plans.ts";
import { fitBooksToPlan } from "../books/plan-visibility.service.ts";
import type * as q from "./billing.queries.ts";

export type SubscriptionRow = q.SubscriptionRow;

export const DAY_MS = 24 * 60 * 60 * 1000;

/** `n` calendar months on (or back), the day kept or clamped to the month's last (31 Jan → 28 Feb). */
export function addMonths(d: Date, n: number): Date {
  const out = new Date(d);
  const day = out.getUTCDate();
  out.setUTCDate(1);
  out.setUTCMonth(out.getUTCMonth() + n);
  const last = new Date(Date.UTC(out.getUTCFullYear(), out.getUTCMonth() + 1, 0)).getUTCDate();
  out.setUTCDate(Math.min(day, last));
  return out;
}
export const addMonth = (d: Date) => addMonths(d, 1);

/** Trial days still owed to this author: the full trial before any, none once it is used up. */
export function remainingTrialDays(row: SubscriptionRow | null, now = new Date()): number {
  if (!row) return TRIAL_DAYS;
  if (row.status !== "trial" || !row.trialEndsAt) return 0;
  // Part of a day counts as a day (a trial started a moment ago still owes all 14); a minute's
  // slack keeps the clock between onboarding and checkout from rounding up to 15.
  const left = Math.ceil((row.trialEndsAt.getTime() - now.getTime() - 60_000) / DAY_MS);
  return Math.max(0, Math.min(TRIAL_DAYS, left));
}

/** The limit a stored tier stands for; none or an unknown one reads as mini, as everywhere. */
const limitOf = (tier: string | null | undefined) => bookLimit(isTier(tier) ? tier : "mini");

/**
 * Every write of a tier goes through here, in the same transaction: the books readers see are
 * fitted to the new plan (ADR 054), the author's chosen ones kept when they chose.
 */
export async function fitBooks(
  tx: Tx,
  userId: string,
  before: string | null | undefined,
  after: string | null | undefined,
  keepVisible?: readonly string[],
) {
  await fitBooksToPlan(tx, userId, { limit: limitOf(after), previousLimit: limitOf(before), keepVisible });
}
