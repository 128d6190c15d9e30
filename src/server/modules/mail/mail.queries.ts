// The outbox as a queue (ADR 048): rows are claimed with FOR UPDATE SKIP LOCKED, so when several
// processes share PostgreSQL each row is sent by exactly one of them, and a claim carries a lease
// so a row whose process died mid-send is tried again.
import { and, eq, gte, inArray, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { mailOutbox, newsletterSubscribers, newsletters, releaseAlerts, user } from "../../../db/schema/index.ts";

/** The NOTIFY channel that wakes every process's sender when a mail is queued (sent on commit). */
export const OUTBOX_CHANNEL = "mail_outbox";

export type OutboxRow = typeof mailOutbox.$inferSelect;
export type NewOutboxRow = Pick<
  typeof mailOutbox.$inferInsert,
  "to" | "subject" | "text" | "html" | "replyToName" | "replyToAddress" | "fromName" | "headers"
>;

const ms = (n: number) => sql`${n} * interval '1 millisecond'`;

/** Wakes every process's sender; in a transaction, on commit. */
const notifySenders = (db: Db | Tx) => db.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);

/** Queues a mail and tells every process's sender; in a transaction, both happen on commit. */
export async function insertQueued(db: Db | Tx, mail: NewOutboxRow): Promise<void> {
  await db.insert(mailOutbox).values({ ...mail, status: "queued" });
  await notifySenders(db);
}

export async function insertLogged(db: Db | Tx, mail: NewOutboxRow): Promise<void> {
  await db.insert(mailOutbox).values({ ...mail, status: "logged" });
}

// Written with literals, not parameters, and with the first condition (implied by the rest) spelled
// out: so the planner can prove a lane's partial index (rows to send only) covers the claim even
// for a kept, generically planned statement, and read it in its order instead of scanning and
// sorting the table (bench:newsletter, ADR 066).
const due = () =>
  sql`(${mailOutbox.status} in ('queued', 'sending') and ((${mailOutbox.status} = 'queued' and ${mailOutbox.nextAttemptAt} <= now()) or (${mailOutbox.status} = 'sending' and ${mailOutbox.leaseUntil} <= now())))`;

/**
 * The two lanes of the queue (ADR 066, 073): `mail` is everything but the paced copies (a reset
 * mail, a confirmation), `bulk` is newsletters' copies and release alerts' mails, sent at their
 * own pace. Each has its own index (the same conditions, so the index is used).
 */
export type Lane = "mail" | "bulk";
const inLane = (lane: Lane) =>
  lane === "bulk"
    ? and(or(isNotNull(mailOutbox.newsletterId), isNotNull(mailOutbox.releaseAlertId)), notPaused())
    : and(isNull(mailOutbox.newsletterId), isNull(mailOutbox.releaseAlertId));

/** Whether a row is one of the paced lane's copies (a newsletter's or a release alert's). */
export const isPaced = (row: Pick<OutboxRow, "newsletterId" | "releaseAlertId">) =>
  row.newsletterId !== null || row.releaseAlertId !== null;

/**
 * A copy of an account whose sending staff paused waits (ADR 070, 073): it stays queued,
 * untouched, and goes once the account is resumed. Newsletters' copies and release alerts' alike.
 */
// A scalar subquery, read for each row the claim looks at: as NOT EXISTS the planner made it an
// anti-join, misjudged how many rows pass, and scanned and sorted every copy still to go for
// each claim (bench:newsletter, ADR 066).
const notPaused = () =>
  sql`(select ${user.newsletterSendingPausedAt} from ${newsletters} join ${user} on ${user.id} = ${newsletters.userId}
    where ${newsletters.id} = ${mailOutbox.newsletterId}) is null
  and (select ${user.newsletterSendingPausedAt} from ${releaseAlerts} join ${user} on ${user.id} = ${releaseAlerts.userId}
    where ${releaseAlerts.id} = ${mailOutbox.releaseAlertId}) is null`;

/** Takes up to `limit` rows of a lane that are due (or whose sender's lease ran out) for this process. */
export async function claimDue(db: Db, limit: number, leaseMs: number, lane: Lane = "mail"): Promise<OutboxRow[]> {
  const claim = (conn: Db | Tx) => {
    const ids = conn
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(inLane(lane), due()))
      // A newsletter's copies share one time (queued together): the index's order is theirs.
      .orderBy(...(lane === "bulk" ? [mailOutbox.nextAttemptAt] : [mailOutbox.nextAttemptAt, mailOutbox.createdAt]))
      .limit(limit)
      .for("update", { skipLocked: true });
    return conn
      .update(mailOutbox)
      .set({
        status: "sending",
        attempts: sql`${mailOutbox.attempts} + 1`,
        leaseUntil: sql`now() + ${ms(leaseMs)}`,
      })
      .where(inArray(mailOutbox.id, ids))
      .returning()
      .then((rows) => rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()));
  };
  if (lane === "mail") return claim(db);
  // A newsletter leaves thousands of rows due at once, and the planner, short of statistics (the
  // embedded database keeps none of its own), would read and sort every one of them for each
  // claim: 10–60 ms a claim, growing with the list (bench:newsletter, ADR 066). Without a sort it
  // reads the lane's partial index in its order and stops at `limit`.
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_sort = off`);
    return claim(tx);
  });
}

/** Whether anything could be sent now (tests wait for this to be false); held copies cannot. */
export async function hasDue(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(due(), or(inLane("mail"), notPaused())))
    .limit(1);
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

/** A newsletter's copy whose reader unsubscribed or bounced before it went: not sent, ever. */
export async function markSkipped(db: Db, row: OutboxRow, reason: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: "skipped", leaseUntil: null, error: reason })
    .where(stillClaimed(row.id, row.attempts));
}

/** Fails a claimed row for good and, while it was still ours, runs `bounce` in the same transaction. */
async function failAndBounce(db: Db, row: OutboxRow, error: string, bounce: (tx: Tx) => Promise<void>) {
  await db.transaction(async (tx) => {
    const failed = await tx
      .update(mailOutbox)
      .set({ status: "failed", leaseUntil: null, error })
      .where(stillClaimed(row.id, row.attempts))
      .returning({ id: mailOutbox.id });
    if (failed.length > 0) await bounce(tx);
  });
}

/**
 * The author's newsletter list and release alerts mark an address `bounced` (a 5xx: it does not
 * exist) on both, whichever of them bounced: a mail to it on either list would bounce too, and
 * every bounce counts against the sending domain. Only that author's lists; another author's
 * reader with the same address is theirs to lose.
 */
async function markAddressBounced(tx: Tx, userId: string, email: string): Promise<void> {
  await tx
    .update(newsletterSubscribers)
    .set({ status: "bounced" })
    .where(
      and(
        eq(newsletterSubscribers.userId, userId),
        sql`lower(${newsletterSubscribers.email}) = lower(${email})`,
        sql`${newsletterSubscribers.status} in ('pending', 'confirmed')`,
      ),
    );
  await tx
    .update(releaseAlerts)
    .set({ status: "bounced" })
    .where(
      and(
        eq(releaseAlerts.userId, userId),
        sql`lower(${releaseAlerts.email}) = lower(${email})`,
        sql`${releaseAlerts.status} in ('pending', 'confirmed')`,
      ),
    );
}

/**
 * A newsletter's copy refused for good (5xx): the row fails and, in the same transaction, its
 * reader is marked bounced on the author's list and alerts, so no later newsletter or release
 * mail is queued for the address (ADR 066, 073).
 */
export async function markBounced(db: Db, row: OutboxRow, error: string): Promise<void> {
  const { subscriberId } = row;
  await failAndBounce(db, row, error, async (tx) => {
    if (subscriberId === null) return;
    const [reader] = await tx
      .select({ userId: newsletterSubscribers.userId, email: newsletterSubscribers.email })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.id, subscriberId));
    if (reader) await markAddressBounced(tx, reader.userId, reader.email);
  });
}

/**
 * A release alert's mail refused for good (5xx): the row fails and, in the same transaction,
 * every alert of that address on the author's site and the author's newsletter reader with it are
 * marked bounced, so the address is never mailed again by this author's launches or newsletters,
 * nor asked to confirm a new alert (ADR 073).
 */
export async function markAlertBounced(db: Db, row: OutboxRow, error: string): Promise<void> {
  const { releaseAlertId } = row;
  await failAndBounce(db, row, error, async (tx) => {
    if (releaseAlertId === null) return;
    const [alert] = await tx
      .select({ userId: releaseAlerts.userId, email: releaseAlerts.email })
      .from(releaseAlerts)
      .where(eq(releaseAlerts.id, releaseAlertId));
    if (alert) await markAddressBounced(tx, alert.userId, alert.email);
  });
}

/** Runs an INSERT of copies, tells the senders when they are queued, and counts the rows it added. */
async function insertCopies(tx: Tx, status: "queued" | "logged", insert: SQL): Promise<number> {
  const res = await tx.execute(sql`with added as (${insert} returning 1) select count(*)::int as n from added`);
  if (status === "queued") await notifySenders(tx);
  return (res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

/**
 * One queued row per confirmed, not yet told release alert of one of the author's books, in the
 * caller's transaction (ADR 073): the mail is made when it is sent, like a newsletter's copy.
 * The unique release_alert_id index and ON CONFLICT DO NOTHING add nobody twice. Returns rows added.
 */
export async function insertReleaseAlertCopies(
  tx: Tx,
  a: { bookId: string; userId: string; subject: string; status: "queued" | "logged" },
): Promise<number> {
  return insertCopies(
    tx,
    a.status,
    sql`insert into ${mailOutbox} ("to", "subject", "text", "status", "release_alert_id")
      select ${releaseAlerts.email}, ${a.subject}, '', ${a.status}, ${releaseAlerts.id}
      from ${releaseAlerts}
      where ${releaseAlerts.bookId} = ${a.bookId} and ${releaseAlerts.userId} = ${a.userId}
        and ${releaseAlerts.status} = 'confirmed' and ${releaseAlerts.notifiedAt} is null
      order by ${releaseAlerts.createdAt}, ${releaseAlerts.id}
      on conflict ("release_alert_id") do nothing`,
  );
}

/**
 * One queued row per confirmed subscriber of the author, for this newsletter, in the caller's
 * transaction (ADR 066). The copy's text is made when it is sent (`text` stays empty here), so
 * a newsletter is stored once, not once per reader. Queueing again adds nobody twice: the
 * unique (newsletter_id, subscriber_id) index and ON CONFLICT DO NOTHING. Returns rows added.
 */
export async function insertNewsletterCopies(
  tx: Tx,
  n: { newsletterId: string; userId: string; subject: string; status: "queued" | "logged" },
): Promise<number> {
  return insertCopies(
    tx,
    n.status,
    sql`insert into ${mailOutbox} ("to", "subject", "text", "status", "newsletter_id", "subscriber_id")
      select ${newsletterSubscribers.email}, ${n.subject}, '', ${n.status}, ${n.newsletterId}::uuid, ${newsletterSubscribers.id}
      from ${newsletterSubscribers}
      where ${newsletterSubscribers.userId} = ${n.userId} and ${newsletterSubscribers.status} = 'confirmed'
      order by ${newsletterSubscribers.createdAt}, ${newsletterSubscribers.id}
      on conflict ("newsletter_id", "subscriber_id") do nothing`,
  );
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
  /**
   * How long the oldest waiting mail other than a paced copy (a newsletter's, a release alert's)
   * has waited, in seconds (0 when none): a large newsletter takes a while at its pace without
   * mail being stuck.
   */
  oldestQueuedSeconds: number;
};

export async function selectBacklog(db: Db): Promise<OutboxBacklog> {
  const [row] = await db
    .select({
      queued: sql<number>`(count(*) filter (where ${mailOutbox.status} in ('queued', 'sending')))::int`,
      failedLastDay: sql<number>`(count(*) filter (where ${mailOutbox.status} = 'failed' and ${mailOutbox.createdAt} > now() - interval '1 day'))::int`,
      oldestQueuedSeconds: sql<number>`coalesce(extract(epoch from now() - min(${mailOutbox.createdAt}) filter (where ${mailOutbox.status} in ('queued', 'sending') and ${mailOutbox.newsletterId} is null and ${mailOutbox.releaseAlertId} is null)), 0)::int`,
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
