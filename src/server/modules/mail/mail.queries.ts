// The outbox as a queue (ADR 048): rows are claimed with FOR UPDATE SKIP LOCKED, so when several
// processes share PostgreSQL each row is sent by exactly one of them, and a claim carries a lease
// so a row whose process died mid-send is tried again.
import { and, eq, gte, inArray, lte, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { mailOutbox } from "../../../db/schema/index.ts";

/** The NOTIFY channel that wakes every process's sender when a mail is queued (sent on commit). */
export const OUTBOX_CHANNEL = "mail_outbox";

export type OutboxRow = typeof mailOutbox.$inferSelect;
export type NewOutboxRow = Pick<
  typeof mailOutbox.$inferInsert,
  "to" | "subject" | "text" | "html" | "replyToName" | "replyToAddress" | "fromName" | "headers"
>;

const ms = (n: number) => sql`${n} * interval '1 millisecond'`;

/** Queues a mail and tells every process's sender; in a transaction, both happen on commit. */
export async function insertQueued(db: Db | Tx, mail: NewOutboxRow): Promise<void> {
  await db.insert(mailOutbox).values({ ...mail, status: "queued" });
  await db.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
}

export async function insertLogged(db: Db | Tx, mail: NewOutboxRow): Promise<void> {
  await db.insert(mailOutbox).values({ ...mail, status: "logged" });
}

const due = () =>
  or(
    and(eq(mailOutbox.status, "queued"), lte(mailOutbox.nextAttemptAt, sql`now()`)),
    and(eq(mailOutbox.status, "sending"), lte(mailOutbox.leaseUntil, sql`now()`)),
  );

/** Takes up to `limit` rows that are due (or whose sender's lease ran out) for this process. */
export async function claimDue(db: Db, limit: number, leaseMs: number): Promise<OutboxRow[]> {
  const ids = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(due())
    .orderBy(mailOutbox.nextAttemptAt, mailOutbox.createdAt)
    .limit(limit)
    .for("update", { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({
      status: "sending",
      attempts: sql`${mailOutbox.attempts} + 1`,
      leaseUntil: sql`now() + ${ms(leaseMs)}`,
    })
    .where(inArray(mailOutbox.id, ids))
    .returning()
    .then((rows) => rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()));
}

/** Whether anything could be sent now (tests wait for this to be false). */
export async function hasDue(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: mailOutbox.id }).from(mailOutbox).where(due()).limit(1);
  return row !== undefined;
}

// Each settle applies only while the row is still ours: a lease that ran out may have let
// another process take it.
const stillClaimed = (id: string, attempts: number) =>
  and(eq(mailOutbox.id, id), eq(mailOutbox.status, "sending"), eq(mailOutbox.attempts, attempts));

export async function markSent(db: Db, row: OutboxRow): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: "sent", sentAt: sql`now()`, leaseUntil: null, error: null })
    .where(stillClaimed(row.id, row.attempts));
}

export async function markRetry(db: Db, row: OutboxRow, error: string, delayMs: number): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: "queued", nextAttemptAt: sql`now() + ${ms(delayMs)}`, leaseUntil: null, error })
    .where(stillClaimed(row.id, row.attempts));
}

export async function markFailed(db: Db, row: OutboxRow, error: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: "failed", leaseUntil: null, error })
    .where(stillClaimed(row.id, row.attempts));
}

/** A claimed row this process will not try after all: queued again, the claim not counted. */
export async function release(db: Db, row: OutboxRow): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: "queued", attempts: row.attempts - 1, leaseUntil: null })
    .where(stillClaimed(row.id, row.attempts));
}

/** Rows whose process died while sending them on their last allowed attempt: given up. */
export async function failAbandoned(db: Db, maxAttempts: number): Promise<void> {
  await db
    .update(mailOutbox)
    .set({
      status: "failed",
      leaseUntil: null,
      error: sql`coalesce(${mailOutbox.error}, 'The sender stopped while sending')`,
    })
    .where(
      and(
        eq(mailOutbox.status, "sending"),
        lte(mailOutbox.leaseUntil, sql`now()`),
        gte(mailOutbox.attempts, maxAttempts),
      ),
    );
}

export type OutboxBacklog = {
  /** Waiting to go (queued or being sent). */
  queued: number;
  failedLastDay: number;
  /** How long the oldest waiting mail has waited, in seconds (0 when none). */
  oldestQueuedSeconds: number;
};

export async function selectBacklog(db: Db): Promise<OutboxBacklog> {
  const [row] = await db
    .select({
      queued: sql<number>`(count(*) filter (where ${mailOutbox.status} in ('queued', 'sending')))::int`,
      failedLastDay: sql<number>`(count(*) filter (where ${mailOutbox.status} = 'failed' and ${mailOutbox.createdAt} > now() - interval '1 day'))::int`,
      oldestQueuedSeconds: sql<number>`coalesce(extract(epoch from now() - min(${mailOutbox.createdAt}) filter (where ${mailOutbox.status} in ('queued', 'sending'))), 0)::int`,
    })
    .from(mailOutbox)
    .where(
      or(
        inArray(mailOutbox.status, ["queued", "sending"]),
        and(eq(mailOutbox.status, "failed"), sql`${mailOutbox.createdAt} > now() - interval '1 day'`),
      ),
    );
  return row ?? { queued: 0, failedLastDay: 0, oldestQueuedSeconds: 0 };
}
