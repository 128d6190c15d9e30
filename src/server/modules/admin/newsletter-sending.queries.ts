// One account's newsletter sending as staff see it (ADR 070): its copies' figures and the pause.
import { and, eq, gte, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { mailOutbox, newsletterSubscribers, newsletters, user } from "../../../db/schema/index.ts";

type Q = Db | Tx;

/** The account's copies queued since `since`, by what became of them; the last copy that went. */
export async function selectSendingFigures(db: Q, userId: string, since: Date) {
  const gone = sql`${mailOutbox.status} in ('sent', 'logged')`;
  const [window] = await db
    .select({
      sent: sql<number>`(count(*) filter (where ${gone}))::int`,
      bounced: sql<number>`(count(*) filter (where ${mailOutbox.status} = 'failed' and ${newsletterSubscribers.status} = 'bounced'))::int`,
      waiting: sql<number>`(count(*) filter (where ${mailOutbox.status} in ('queued', 'sending')))::int`,
    })
    .from(mailOutbox)
    .innerJoin(newsletters, eq(newsletters.id, mailOutbox.newsletterId))
    .leftJoin(newsletterSubscribers, eq(newsletterSubscribers.id, mailOutbox.subscriberId))
    .where(and(eq(newsletters.userId, userId), gte(mailOutbox.createdAt, since)));
  const [last] = await db
    .select({ at: sql<Date | null>`max(${mailOutbox.sentAt})`.mapWith(mailOutbox.sentAt) })
    .from(mailOutbox)
    .innerJoin(newsletters, eq(newsletters.id, mailOutbox.newsletterId))
    .where(and(eq(newsletters.userId, userId), eq(mailOutbox.status, "sent")));
  return {
    sent: window?.sent ?? 0,
    bounced: window?.bounced ?? 0,
    waiting: window?.waiting ?? 0,
    lastSentAt: last?.at ?? null,
  };
}

export async function selectPause(db: Q, userId: string) {
  const [row] = await db
    .select({ at: user.newsletterSendingPausedAt, reason: user.newsletterSendingPausedReason })
    .from(user)
    .where(eq(user.id, userId));
  return row ?? null;
}

/** Resumed, the held copies go at the senders' next poll (every few seconds). */
export async function setPause(db: Q, userId: string, paused: boolean, reason: string) {
  await db
    .update(user)
    .set({
      newsletterSendingPausedAt: paused ? sql`now()` : null,
      newsletterSendingPausedReason: paused ? reason : null,
      updatedAt: new Date(),
    })
    .where(eq(user.id, userId));
}
