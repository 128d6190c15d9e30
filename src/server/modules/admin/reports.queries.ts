// The monthly reports' reads (Generate Reports): every tenant's transactions and subscriptions,
// so, like admin.queries.ts, only the staff-only service calls them. Like every business figure,
// they leave the demo author and other seeded samples out (ADR 045).
import { and, asc, eq, gte, lt } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { subscriptions, transactions, user } from "../../../db/schema/index.ts";
import { ofCustomers } from "./admin.queries.ts";

export async function selectAllTransactionsBetween(db: Db, from: Date, to: Date) {
  return db
    .select({
      id: transactions.id,
      processedAt: transactions.processedAt,
      email: user.email,
      name: user.name,
      tier: transactions.subscriptionTier,
      type: transactions.transactionType,
      currency: transactions.currency,
      amountMinor: transactions.amountMinor,
      amountGbpMinor: transactions.amountGbpMinor,
      invoiceId: transactions.providerInvoiceId,
    })
    .from(transactions)
    .leftJoin(user, eq(user.id, transactions.userId))
    .where(and(gte(transactions.processedAt, from), lt(transactions.processedAt, to), ofCustomers(transactions.userId)))
    .orderBy(asc(transactions.processedAt), asc(transactions.id));
}

/** Subscriptions that existed by the month's end, as they stand now. */
export async function selectAllSubscriptionsCreatedBefore(db: Db, to: Date) {
  return db
    .select({
      id: subscriptions.id,
      email: user.email,
      name: user.name,
      tier: subscriptions.tier,
      status: subscriptions.status,
      currency: subscriptions.currency,
      addon: subscriptions.customDomainAddon,
      provider: subscriptions.provider,
      createdAt: subscriptions.createdAt,
      trialEndsAt: subscriptions.trialEndsAt,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
    })
    .from(subscriptions)
    .innerJoin(user, eq(user.id, subscriptions.userId))
    .where(and(lt(subscriptions.createdAt, to), ofCustomers(subscriptions.userId)))
    .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id));
}
