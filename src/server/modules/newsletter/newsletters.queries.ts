// An author's newsletters (ADR 066). Every author-side query takes the owner's id; the job's
// queries (due newsletters, finished ones) and the copy maker's read across authors by row id.
import { and, desc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import {
  mailOutbox,
  newsletterSubscribers,
  newsletters,
  profiles,
  user,
  websiteCustomization,
  websites,
} from "../../../db/schema/index.ts";
import type { NewsletterStatus } from "../../../shared/enums.ts";
import { deleteOwned, insertOwned, ownRow, updateOwned } from "../../lib/owned-rows.ts";

type Conn = Db | Tx;
export type NewsletterRow = typeof newsletters.$inferSelect;
export type NewsletterValues = Partial<
  Pick<
    typeof newsletters.$inferInsert,
    "subject" | "content" | "publishAsPost" | "countClicks" | "status" | "scheduledAt" | "error"
  >
>;

/** Not a sent newsletter the author deleted (ADR 069): to the author, that one is gone. */
const shown = () => isNull(newsletters.deletedAt);

export async function selectNewsletters(db: Conn, userId: string): Promise<NewsletterRow[]> {
  return db
    .select()
    .from(newsletters)
    .where(and(eq(newsletters.userId, userId), shown()))
    .orderBy(desc(newsletters.createdAt), desc(newsletters.id));
}

export async function selectNewsletter(db: Conn, userId: string, id: string): Promise<NewsletterRow | null> {
  const [row] = await db
    .select()
    .from(newsletters)
    .where(ownRow(newsletters, userId, id, shown()));
  return row ?? null;
}

/** The row, locked until the transaction ends (a send, an edit and a cancel never interleave). */
export async function lockNewsletter(tx: Tx, userId: string, id: string): Promise<NewsletterRow | null> {
  const [row] = await tx
    .select()
    .from(newsletters)
    .where(ownRow(newsletters, userId, id, shown()))
    .for("update");
  return row ?? null;
}

export function insertNewsletter(
  db: Conn,
  userId: string,
  v: { subject: string; content: string; publishAsPost: boolean; countClicks: boolean },
): Promise<NewsletterRow> {
  return insertOwned(db, newsletters, userId, v);
}

/** Changes the row only while it is in one of `from` (null: nothing changed). */
export function updateNewsletter(
  db: Conn,
  userId: string,
  id: string,
  values: NewsletterValues,
  from: readonly NewsletterStatus[],
): Promise<NewsletterRow | null> {
  return updateOwned(db, newsletters, userId, id, values, inArray(newsletters.status, [...from]));
}

export function deleteNewsletter(db: Conn, userId: string, id: string): Promise<boolean> {
  return deleteOwned(db, newsletters, userId, id);
}

/**
 * A sent newsletter deleted (ADR 069): its text blanked and the row hidden from the author, kept
 * with its copies, which still count towards the day's cap and staff's figures.
 */
export async function hideSentNewsletter(tx: Tx, userId: string, id: string): Promise<void> {
  await tx
    .update(newsletters)
    .set({ deletedAt: sql`now()`, content: "", publishAsPost: false, updatedAt: new Date() })
    .where(ownRow(newsletters, userId, id, eq(newsletters.status, "sent")));
}

/** Marks it going out now, with how many copies were queued. */
export async function markGoingOut(tx: Tx, id: string, recipients: number): Promise<NewsletterRow> {
  const [row] = await tx
    .update(newsletters)
    .set({
      status: "sending",
      recipients,
      error: null,
      // Sent now: now; a scheduled one keeps the time it was due.
      scheduledAt: sql`least(coalesce(${newsletters.scheduledAt}, now()), now())`,
      startedAt: sql`now()`,
      updatedAt: new Date(),
    })
    .where(eq(newsletters.id, id))
    .returning();
  if (!row) throw new Error("newsletter vanished while locked");
  return row;
}

export async function setPost(db: Conn, id: string, postId: string): Promise<void> {
  await db.update(newsletters).set({ postId }).where(eq(newsletters.id, id));
}

/** Serialises one author's sends, so two at once cannot both pass the day's cap. */
/** Locks the author's row; says whether staff paused their sending (ADR 070). */
export async function lockAuthor(tx: Tx, userId: string): Promise<{ paused: boolean }> {
  const [row] = await tx
    .select({ pausedAt: user.newsletterSendingPausedAt })
    .from(user)
    .where(eq(user.id, userId))
    .for("update");
  return { paused: row?.pausedAt != null };
}

/** Whether staff paused the author's sending (ADR 070), for the author's own screen. */
export async function selectSendingPaused(db: Conn, userId: string): Promise<boolean> {
  const [row] = await db.select({ pausedAt: user.newsletterSendingPausedAt }).from(user).where(eq(user.id, userId));
  return row?.pausedAt != null;
}

export async function countConfirmed(db: Conn, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(newsletterSubscribers)
    .where(and(eq(newsletterSubscribers.userId, userId), eq(newsletterSubscribers.status, "confirmed")));
  return row?.n ?? 0;
}

/** Newsletter copies of the author queued in the last 24 hours (the sending cap counts these). */
export async function countCopiesLastDay(db: Conn, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .innerJoin(newsletters, eq(newsletters.id, mailOutbox.newsletterId))
    .where(and(eq(newsletters.userId, userId), sql`${mailOutbox.createdAt} > now() - interval '1 day'`));
  return row?.n ?? 0;
}

/** One scheduled newsletter whose time has come, locked; skipped by other processes meanwhile. */
export async function lockOneDue(tx: Tx): Promise<NewsletterRow | null> {
  const [row] = await tx
    .select()
    .from(newsletters)
    .where(
      and(
        eq(newsletters.status, "scheduled"),
        lte(newsletters.scheduledAt, sql`now()`),
        // A paused account's newsletters stay scheduled and go once it is resumed (ADR 070).
        sql`not exists (select 1 from ${user} where ${user.id} = ${newsletters.userId} and ${user.newsletterSendingPausedAt} is not null)`,
      ),
    )
    .orderBy(newsletters.scheduledAt)
    .limit(1)
    .for("update", { skipLocked: true });
  return row ?? null;
}

/** Newsletters going out with no copy left to send are sent; returns them (their authors' archives change). */
export async function markFinished(db: Conn): Promise<{ id: string; userId: string }[]> {
  const rows = await db
    .update(newsletters)
    .set({ status: "sent", sentAt: sql`now()`, updatedAt: new Date() })
    .where(
      and(
        eq(newsletters.status, "sending"),
        sql`not exists (select 1 from ${mailOutbox} where ${mailOutbox.newsletterId} = ${newsletters.id} and ${mailOutbox.status} in ('queued', 'sending'))`,
      ),
    )
    .returning({ id: newsletters.id, userId: newsletters.userId });
  return rows;
}

export async function selectFigures(db: Conn, newsletterId: string) {
  const [row] = await db
    .select({
      sent: sql<number>`count(*)::int`,
      accepted: sql<number>`(count(*) filter (where ${mailOutbox.status} in ('sent', 'logged')))::int`,
      bounced: sql<number>`(count(*) filter (where ${mailOutbox.status} = 'failed' and ${newsletterSubscribers.status} = 'bounced'))::int`,
      unsubscribed: sql<number>`(count(*) filter (where ${mailOutbox.status} in ('sent', 'logged') and ${newsletterSubscribers.status} = 'unsubscribed'))::int`,
      waiting: sql<number>`(count(*) filter (where ${mailOutbox.status} in ('queued', 'sending')))::int`,
      skipped: sql<number>`(count(*) filter (where ${mailOutbox.status} = 'skipped'))::int`,
    })
    .from(mailOutbox)
    .leftJoin(newsletterSubscribers, eq(newsletterSubscribers.id, mailOutbox.subscriberId))
    .where(eq(mailOutbox.newsletterId, newsletterId));
  return row ?? { sent: 0, accepted: 0, bounced: 0, unsubscribed: 0, waiting: 0, skipped: 0 };
}

/** Who a newsletter is from: the author's name and account address, their site's address and postal address. */
const senderFields = {
  authorName: profiles.name,
  authorEmail: user.email,
  subdomain: websites.subdomain,
  customDomain: websites.customDomain,
  postalAddress: websiteCustomization.postalAddress,
};

/** What one reader's copy is made of: what every copy shares, and the reader (of that author's list). */
export async function selectCopy(db: Conn, newsletterId: string, subscriberId: string) {
  const shared = await selectCopyShared(db, newsletterId);
  const reader = shared && (await selectReader(db, shared.userId, subscriberId));
  return shared && reader ? { ...shared, email: reader.email, subscriberStatus: reader.status } : null;
}

/** What every reader's copy of a newsletter shares: the newsletter and its author's site. */
export async function selectCopyShared(db: Conn, newsletterId: string) {
  const [row] = await db
    .select({
      userId: newsletters.userId,
      subject: newsletters.subject,
      content: newsletters.content,
      countClicks: newsletters.countClicks,
      ...senderFields,
    })
    .from(newsletters)
    .innerJoin(user, eq(user.id, newsletters.userId))
    .leftJoin(profiles, eq(profiles.id, newsletters.userId))
    .leftJoin(websites, eq(websites.userId, newsletters.userId))
    .leftJoin(websiteCustomization, eq(websiteCustomization.userId, newsletters.userId))
    .where(eq(newsletters.id, newsletterId));
  return row ?? null;
}

/** One reader of the author's list as their copy goes: their address and whether they still want it. */
export async function selectReader(db: Conn, userId: string, subscriberId: string) {
  const [row] = await db
    .select({ email: newsletterSubscribers.email, status: newsletterSubscribers.status })
    .from(newsletterSubscribers)
    .where(and(eq(newsletterSubscribers.id, subscriberId), eq(newsletterSubscribers.userId, userId)));
  return row ?? null;
}

/** The author's account address (a test goes only there) and their site's address. */
export async function selectAuthor(db: Conn, userId: string) {
  const [row] = await db
    .select(senderFields)
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .leftJoin(websites, eq(websites.userId, user.id))
    .leftJoin(websiteCustomization, eq(websiteCustomization.userId, user.id))
    .where(eq(user.id, userId));
  return row ?? null;
}
