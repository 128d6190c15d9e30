// Billing's reads and writes. Every subscription query is keyed by its owner's id, except the
// two that a provider's webhook can only name by the provider's own ids (said in their names).
import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { exchangeRates, processedWebhookEvents, subscriptions, transactions, user } from "../../../db/schema/index.ts";
import type { Currency } from "../../../shared/enums.ts";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
type SubscriptionValues = Partial<Omit<typeof subscriptions.$inferInsert, "userId">>;

export async function findSubscription(db: Db | Tx, userId: string): Promise<SubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return row ?? null;
}

/** The author's subscription, locked until the transaction ends (a change and a renewal never cross). */
export async function findSubscriptionForUpdate(tx: Tx, userId: string): Promise<SubscriptionRow | null> {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId)).for("update");
  return row ?? null;
}

/** Webhooks know a subscription only by the provider's id. */
export async function findSubscriptionByProviderId(
  db: Db | Tx,
  providerSubscriptionId: string,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId));
  return row ?? null;
}

export async function userExists(db: Db | Tx, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.id, userId));
  return row !== undefined;
}

export async function updateSubscription(db: Db | Tx, userId: string, values: SubscriptionValues) {
  const [row] = await db.update(subscriptions).set(values).where(eq(subscriptions.userId, userId)).returning();
  return row ?? null;
}

export async function upsertSubscription(
  db: Db | Tx,
  userId: string,
  values: SubscriptionValues & Pick<typeof subscriptions.$inferInsert, "tier" | "currency">,
) {
  const [row] = await db
    .insert(subscriptions)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: subscriptions.userId, set: values })
    .returning();
  if (!row) throw new Error("subscription not saved");
  return row;
}

/** Webhooks: the provider's snapshot, keyed by its owner; fields the snapshot lacks are kept. */
export async function upsertSubscriptionFields(db: Db | Tx, userId: string, values: SubscriptionValues) {
  await db
    .insert(subscriptions)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: subscriptions.userId, set: values });
}

export async function insertTransaction(db: Db | Tx, values: typeof transactions.$inferInsert) {
  await db.insert(transactions).values(values).onConflictDoNothing({ target: transactions.providerInvoiceId });
}

export async function insertDefaultRates(db: Db | Tx, rates: [Currency, number][]) {
  await db
    .insert(exchangeRates)
    .values(rates.map(([from, rate]) => ({ fromCurrency: from, toCurrency: "GBP", rate })))
    .onConflictDoNothing();
}

/** The stored rate as its decimal text, so conversion is exact (admin/money.ts). */
export async function findRateToGbp(db: Db | Tx, currency: Currency): Promise<string | null> {
  const [row] = await db
    .select({ rate: sql<string>`${exchangeRates.rate}::text` })
    .from(exchangeRates)
    .where(and(eq(exchangeRates.fromCurrency, currency), eq(exchangeRates.toCurrency, "GBP")));
  return row?.rate ?? null;
}

/** True when the event is new (and now recorded), false when it was handled before. */
export async function recordWebhookEvent(
  db: Db | Tx,
  e: { id: string; provider: string; type: string; outcome?: "applied" | "unprocessable"; detail?: string },
): Promise<boolean> {
  const fresh = await db
    .insert(processedWebhookEvents)
    .values(e)
    .onConflictDoNothing()
    .returning({ id: processedWebhookEvents.id });
  return fresh.length > 0;
}

// --- expiry: every subscription due, across all authors (the job's own sweep) ---------------

export async function expireEndedTrialsWithoutCheckout(db: Db | Tx, now: Date) {
  return db
    .update(subscriptions)
    .set({ status: "expired", updatedAt: now })
    .where(
      and(
        eq(subscriptions.status, "trial"),
        lt(subscriptions.trialEndsAt, now),
        isNull(subscriptions.providerSubscriptionId),
      ),
    )
    .returning({ userId: subscriptions.userId });
}

/**
 * Sandbox subscriptions with a card whose paid-for time has run out: trials that ended and active
 * periods that ended. Locked, so a concurrent plan change waits for the renewal.
 */
export async function lockDueSandboxSubscriptions(db: Db | Tx, now: Date) {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, "sandbox"),
        isNotNull(subscriptions.providerSubscriptionId),
        or(
          and(eq(subscriptions.status, "trial"), lt(subscriptions.trialEndsAt, now)),
          and(eq(subscriptions.status, "active"), lt(subscriptions.currentPeriodEnd, now)),
        ),
      ),
    )
    .orderBy(subscriptions.userId)
    .for("update");
}

export async function expireEndedCancellations(db: Db | Tx, now: Date) {
  return db
    .update(subscriptions)
    .set({ status: "expired", updatedAt: now })
    .where(and(eq(subscriptions.status, "cancelled"), lt(subscriptions.currentPeriodEnd, now)))
    .returning({ userId: subscriptions.userId });
}
