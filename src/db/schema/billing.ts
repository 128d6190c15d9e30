// Subscriptions, payments and the rates used to report them in GBP.
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, numeric, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { CURRENCIES, SUBSCRIPTION_STATUSES, TIERS, TRANSACTION_TYPES } from "../../shared/enums.ts";
import { user } from "./auth.ts";
import { oneOf, timestamps, uuidKey } from "./util.ts";

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuidKey(),
    userId: text("user_id")
      .notNull()
      .unique()
      .references(() => user.id, { onDelete: "cascade" }),
    tier: text("tier").notNull().default("mini"),
    status: text("status").notNull().default("trial"),
    currency: text("currency").notNull().default("GBP"),
    customDomainAddon: boolean("custom_domain_addon").notNull().default(false),
    provider: text("provider").notNull().default("sandbox"),
    providerCustomerId: text("provider_customer_id"),
    providerSubscriptionId: text("provider_subscription_id").unique(),
    trialEndsAt: timestamp("trial_ends_at", { withTimezone: true }),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    /**
     * Sandbox only: prorations from plan or add-on changes, owed (positive) or credited (negative)
     * on the next sandbox invoice, in the subscription's currency: what Stripe keeps as pending
     * invoice items and customer balance (ADR 045).
     */
    sandboxBalanceMinor: integer("sandbox_balance_minor").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    check("subscriptions_tier_check", oneOf(t.tier, TIERS)),
    index("subscriptions_status_tier_idx").on(t.status, t.tier),
    check("subscriptions_status_check", oneOf(t.status, SUBSCRIPTION_STATUSES)),
    check("subscriptions_currency_check", oneOf(t.currency, CURRENCIES)),
    check("subscriptions_provider_check", oneOf(t.provider, ["sandbox", "stripe"])),
  ],
);

export const transactions = pgTable(
  "transactions",
  {
    id: uuidKey(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    subscriptionTier: text("subscription_tier").notNull(),
    transactionType: text("transaction_type").notNull().default("subscription_payment"),
    currency: text("currency").notNull(),
    amountMinor: integer("amount_minor").notNull(),
    amountGbpMinor: integer("amount_gbp_minor").notNull(),
    providerInvoiceId: text("provider_invoice_id").unique(),
    processedAt: timestamp("processed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("transactions_processed_idx").on(t.processedAt),
    check("transactions_tier_check", oneOf(t.subscriptionTier, TIERS)),
    check("transactions_type_check", oneOf(t.transactionType, TRANSACTION_TYPES)),
    check("transactions_currency_check", oneOf(t.currency, CURRENCIES)),
  ],
);

export const exchangeRates = pgTable(
  "exchange_rates",
  {
    fromCurrency: text("from_currency").notNull(),
    toCurrency: text("to_currency").notNull(),
    rate: numeric("rate", { precision: 14, scale: 6, mode: "number" }).notNull(),
    lastUpdated: timestamp("last_updated", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.fromCurrency, t.toCurrency] }),
    check("exchange_rates_from_check", oneOf(t.fromCurrency, CURRENCIES)),
    check("exchange_rates_to_check", oneOf(t.toCurrency, CURRENCIES)),
    check("exchange_rates_rate_check", sql`${t.rate} > 0`),
  ],
);

/**
 * Webhook events already handled, so a redelivery has no second effect. An event we can never
 * apply (an unknown subscription, a currency we do not sell in) is acknowledged and kept here
 * as `unprocessable` with the reason, for staff to look at.
 */
export const processedWebhookEvents = pgTable(
  "processed_webhook_events",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    type: text("type").notNull(),
    processedAt: timestamp("processed_at", { withTimezone: true }).notNull().defaultNow(),
    outcome: text("outcome").notNull().default("applied"),
    detail: text("detail"),
  },
  (t) => [check("processed_webhook_events_outcome_check", sql`${t.outcome} in ('applied', 'unprocessable')`)],
);
