// One account's newsletter sending as staff see it (ADR 070): its copies' figures and the pause.
// The copies are its newsletters' and its release alerts' (ADR 073): both go in the paced lane.
import { and, eq, gte, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { mailOutbox, newsletterSubscribers, newsletters, releaseAlerts, user } from "../../../db/schema/index.ts";

type Q = Db | Tx;

/**
 * A copy of the account's: one of its newsletters' or of its release alerts' (each side reads the
 * outbox through its own index).
 */
const ownCopy = (userId: string) =>
  sql`(${mailOutbox.newsletterId} in (select ${newsletters.id} from ${newsletters} where ${newsletters.userId} = ${userId})
    or ${mailOutbox.releaseAlertId} in (select ${releaseAlerts.id} from ${releaseAlerts} where ${releaseAlerts.userId} = ${userId}))`;

/** The account's copies queued since `since`, by what became of them; the last copy that went. */
export async function selectSendingFigures(db: Q, userId: string, since: Date) {
  const gone = sql`${mailOutbox.status} in ('sent', 'logged')`;
  const [window] = await db
    .select({
      sent: sql<number>`(count(*) filter (where ${gone}))::int`,
      bounced: sql<number>`(count(*) filter (where ${mailOutbox.status} = 'failed' and (${newsletterSubscribers.status} = 'bounced' or ${releaseAlerts.status} = 'bounced')))::int`,
      waiting: sql<number>`(count(*) filter (where ${mailOutbox.status} in ('queued', 'sending')))::int`,
    })
    .from(mailOutbox)
    .leftJoin(newsletterSubscribers, eq(newsletterSubscribers.id, mailOutbox.subscriberId))
    .leftJoin(releaseAlerts, eq(releaseAlerts.id, mailOutbox.releaseAlertId))
    .where(and(ownCopy(userId), gte(mailOutbox.createdAt, since)));
  const [last] = await db
    .select({ at: sql<Date | null>`max(${mailOutbox.sentAt})`.mapWith(mailOutbox.sentAt) })
    .from(mailOutbox)
    .where(and(ownCopy(userId), eq(mailOutbox.status, "sent")));
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
