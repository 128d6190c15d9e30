// Paid invoices become transactions rows, their GBP amount at the stored exchange rate: Stripe's
// invoices (through the webhooks) and the sandbox's own are booked by the same function (ADR 045).
import type { Db, Tx } from "../../../db/client.ts";
import type { Currency } from "../../../shared/enums.ts";
import { CURRENCIES } from "../../../shared/enums.ts";
import { convertMinor } from "../admin/money.ts";
import * as q from "./billing.queries.ts";

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
 * An event we can never apply, however often it is delivered: it is acknowledged (a 5xx would
 * make Stripe retry it for days), recorded as unprocessable, and staff are told.
 */
export class UnprocessableBillingEvent extends Error {}

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
