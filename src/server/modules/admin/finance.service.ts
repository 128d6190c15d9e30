// The back office's money: revenue booked this month, the subscriptions customers pay for (by
// plan and currency, in GBP at the stored rates), and the exchange rates staff keep (ADR 045).
import type { Db, Tx } from "../../../db/client.ts";
import { CURRENCIES, type Currency, TIERS, type Tier, type TransactionType } from "../../../shared/enums.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, MONTHLY_PRICE_MINOR, PLANS } from "../../../shared/plans.ts";
import { ADMIN_LIMITS, type Financial } from "../../../shared/schemas/admin.ts";
import { DomainError, forbiddenError, notFoundError } from "../../lib/domain-error.ts";
import * as q from "./admin.queries.ts";
import { convertMinor } from "./money.ts";
import type { Staff } from "./staff.ts";

export const startOfMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/** Rates to GBP as stored (GBP itself is 1); a currency without a row cannot be reported. */
async function ratesToGbp(db: Db) {
  const rows = await q.selectRates(db);
  const toGbp = new Map<string, string>([["GBP", "1"]]);
  for (const r of rows) if (r.toCurrency === "GBP") toGbp.set(r.fromCurrency, r.rate);
  return { rows, toGbp };
}

/**
 * Payments booked this calendar month (UTC), refunds negative, from customers only (ADR 045):
 * `gbpMinor` and how many. What Monthly Revenue and "Revenue this month" show.
 */
export function monthRevenue(db: Db | Tx, now = new Date()) {
  return q.sumAllTransactionsSince(db, startOfMonth(now));
}

/**
 * Customers' active subscriptions and what they pay a month (plan + add-on in their currency,
 * converted with the stored rates): by plan, by currency, the estimated MRR and the count.
 */
export async function activeSubscriptions(db: Db) {
  const { rows: rates, toGbp } = await ratesToGbp(db);
  const gbp = (minor: number, currency: string) => convertMinor(minor, toGbp.get(currency) ?? "0");
  const paying = await q.countAllPayingSubscriptions(db);

  const byTier = new Map<Tier, { subscribers: number; totalGbpMinor: number }>(
    TIERS.map((t) => [t, { subscribers: 0, totalGbpMinor: 0 }]),
  );
  const byCurrency = new Map<Currency, { subscribers: number; mrrMinor: number }>(
    CURRENCIES.map((c) => [c, { subscribers: 0, mrrMinor: 0 }]),
  );
  for (const g of paying) {
    const tier = g.tier as Tier;
    const currency = g.currency as Currency;
    // What one subscriber of this group pays a month, in their currency (integers throughout).
    const each = MONTHLY_PRICE_MINOR[tier][currency] + (g.addon ? CUSTOM_DOMAIN_ADDON_MINOR[currency] : 0);
    const t = byTier.get(tier);
    if (t) {
      t.subscribers += g.n;
      t.totalGbpMinor += gbp(each * g.n, currency);
    }
    const c = byCurrency.get(currency);
    if (c) {
      c.subscribers += g.n;
      c.mrrMinor += each * g.n;
    }
  }
  const currencies = [...byCurrency.entries()].map(([currency, c]) => ({
    currency,
    subscribers: c.subscribers,
    mrrMinor: c.mrrMinor,
    mrrGbpMinor: gbp(c.mrrMinor, currency),
  }));
  return {
    rates,
    estimatedMrrGbpMinor: currencies.reduce((sum, c) => sum + c.mrrGbpMinor, 0),
    count: currencies.reduce((sum, c) => sum + c.subscribers, 0),
    byTier: [...byTier.entries()].map(([tier, t]) => ({
      tier,
      name: PLANS[tier].name,
      priceGbpMinor: MONTHLY_PRICE_MINOR[tier].GBP,
      subscribers: t.subscribers,
      totalGbpMinor: t.totalGbpMinor,
    })),
    byCurrency: currencies,
  };
}

export async function financial(db: Db, now = new Date()): Promise<Financial> {
  const { rates, estimatedMrrGbpMinor, count, byTier, byCurrency } = await activeSubscriptions(db);
  const month = await monthRevenue(db, now);
  const recent = await q.selectRecentTransactions(db, ADMIN_LIMITS.recentTransactions);
  return {
    monthlyRevenueGbpMinor: month.gbpMinor,
    estimatedMrrGbpMinor,
    activeSubscriptions: count,
    transactionsThisMonth: month.count,
    byTier,
    byCurrency,
    rates: rates.map((r) => ({
      fromCurrency: r.fromCurrency as Currency,
      toCurrency: r.toCurrency as Currency,
      rate: r.rate,
      lastUpdated: r.lastUpdated.toISOString(),
    })),
    recentTransactions: recent.map((t) => ({
      id: t.id,
      tier: t.tier as Tier,
      type: t.type as TransactionType,
      processedAt: t.processedAt.toISOString(),
      currency: t.currency as Currency,
      amountMinor: t.amountMinor,
      amountGbpMinor: t.amountGbpMinor,
    })),
  };
}

export async function setRate(db: Db, actor: Staff, from: Currency, rate: string) {
  if (actor.role !== "super_admin") throw forbiddenError("Only a super admin can change exchange rates");
  if (from === "GBP") throw new DomainError("validation_failed", "GBP to GBP is always 1", { field: "currency" });
  await db.transaction(async (tx) => {
    if (!(await q.updateRate(tx, from, "GBP", rate))) throw notFoundError("No such exchange rate");
    await q.insertAudit(tx, actor, "exchange_rate_changed", { target: `${from}→GBP`, detail: rate });
  });
}
