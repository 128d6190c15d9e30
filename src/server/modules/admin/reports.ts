// Generate Reports: a month's revenue (every transaction, refunds negative) and its
// subscriptions, as CSV. Amounts are in the currency charged and in GBP as stored with the
// transaction (the rate of its day), so the GBP column sums to the month's revenue figure.
import type { Db } from "../../../db/client.ts";
import type { Currency, Tier } from "../../../shared/enums.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, MONTHLY_PRICE_MINOR } from "../../../shared/plans.ts";
import { currentMonth, type ReportKind } from "../../../shared/schemas/back-office-actions.ts";
import type { Staff } from "./admin.service.ts";
import { recordAudit } from "./admin.service.ts";
import { decimal, toCsv } from "./csv.ts";
import * as q from "./reports.queries.ts";

function monthRange(month: string): { from: Date; to: Date } {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)) };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export async function revenueCsv(db: Db, month: string): Promise<string> {
  const { from, to } = monthRange(month);
  const rows = await q.selectAllTransactionsBetween(db, from, to);
  return toCsv(
    [
      "processed_at",
      "transaction_id",
      "account_email",
      "account_name",
      "tier",
      "type",
      "currency",
      "amount",
      "amount_gbp",
      "invoice_id",
    ],
    rows.map((t) => {
      const sign = t.type === "refund" ? -1 : 1;
      return [
        t.processedAt.toISOString(),
        t.id,
        t.email ?? "(deleted account)",
        t.name,
        t.tier,
        t.type,
        t.currency,
        decimal(sign * Math.abs(t.amountMinor)),
        decimal(sign * Math.abs(t.amountGbpMinor)),
        t.invoiceId,
      ];
    }),
  );
}

export async function subscriptionsCsv(db: Db, month: string): Promise<string> {
  const { from, to } = monthRange(month);
  const rows = await q.selectAllSubscriptionsCreatedBefore(db, to);
  return toCsv(
    [
      "subscription_id",
      "account_email",
      "account_name",
      "tier",
      "status_now",
      "currency",
      "monthly_price",
      "custom_domain_addon",
      "provider",
      "created_at",
      "new_this_month",
      "trial_ends_at",
      "current_period_end",
      "cancel_at_period_end",
    ],
    rows.map((s) => {
      const tier = s.tier as Tier;
      const currency = s.currency as Currency;
      const price = (MONTHLY_PRICE_MINOR[tier]?.[currency] ?? 0) + (s.addon ? CUSTOM_DOMAIN_ADDON_MINOR[currency] : 0);
      return [
        s.id,
        s.email,
        s.name,
        s.tier,
        s.status,
        s.currency,
        decimal(price),
        s.addon,
        s.provider,
        s.createdAt.toISOString(),
        s.createdAt >= from,
        iso(s.trialEndsAt),
        iso(s.currentPeriodEnd),
        s.cancelAtPeriodEnd,
      ];
    }),
  );
}

/** The report's file name and text; the download is audited (it carries every customer's email). */
export async function monthlyReport(
  db: Db,
  actor: Staff,
  kind: ReportKind,
  month = currentMonth(),
): Promise<{ filename: string; csv: string }> {
  const csv = kind === "revenue" ? await revenueCsv(db, month) : await subscriptionsCsv(db, month);
  await recordAudit(db, actor, "report_downloaded", `${kind} ${month}`);
  return { filename: `bookplate-${kind}-${month}.csv`, csv };
}
