// Launches (issue 17): the release alerts (table `release_alerts`), readers waiting for a book, as
// the public form, its confirmation link and the launch-day job write them. Every author-side
// query takes the owner's id.
import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { books, profiles, releaseAlerts, user, websites } from "../../../db/schema/index.ts";

type Conn = Db | Tx;

/** A pending sign-up keeps its token (the mail can be sent again); null when already confirmed. */
export async function pendingToken(
  db: Db,
  r: { userId: string; bookId: string; email: string; token: string },
): Promise<string | null> {
  // An address whose release mail bounced (5xx) is not asked again on this site (ADR 073).
  const [bounced] = await db
    .select({ id: releaseAlerts.id })
    .from(releaseAlerts)
    .where(
      and(
        eq(releaseAlerts.userId, r.userId),
        eq(sql`lower(${releaseAlerts.email})`, r.email),
        eq(releaseAlerts.status, "bounced"),
      ),
    )
    .limit(1);
  if (bounced) return null;
  const [made] = await db
    .insert(releaseAlerts)
    .values({ userId: r.userId, bookId: r.bookId, email: r.email, confirmToken: r.token })
    .onConflictDoNothing()
    .returning({ token: releaseAlerts.confirmToken });
  if (made) return made.token;
  // A reader who unsubscribed and asks again starts over: pending, with a new token.
  const [again] = await db
    .update(releaseAlerts)
    .set({ status: "pending", confirmToken: r.token, confirmedAt: null })
    .where(
      and(
        eq(releaseAlerts.bookId, r.bookId),
        eq(sql`lower(${releaseAlerts.email})`, r.email),
        eq(releaseAlerts.status, "unsubscribed"),
      ),
    )
    .returning({ token: releaseAlerts.confirmToken });
  if (again) return again.token;
  const [row] = await db
    .select({ status: releaseAlerts.status, token: releaseAlerts.confirmToken })
    .from(releaseAlerts)
    .where(and(eq(releaseAlerts.bookId, r.bookId), eq(sql`lower(${releaseAlerts.email})`, r.email)));
  return row?.status === "pending" ? row.token : null;
}

/** Confirms the alert holding this token on this site; false for an unknown token. */
export async function confirmByToken(db: Db, userId: string, token: string): Promise<boolean> {
  const rows = await db
    .update(releaseAlerts)
    .set({ status: "confirmed", confirmedAt: sql`coalesce(${releaseAlerts.confirmedAt}, now())` })
    .where(
      and(
        eq(releaseAlerts.userId, userId),
        eq(releaseAlerts.confirmToken, token),
        // An old confirmation link does not undo an unsubscribe.
        inArray(releaseAlerts.status, ["pending", "confirmed"]),
      ),
    )
    .returning({ id: releaseAlerts.id });
  return rows.length > 0;
}

/** How many readers wait for the book, confirmed, and already told. */
export async function countAlerts(db: Conn, userId: string, bookId: string) {
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${releaseAlerts.status} = 'pending')::int`,
      confirmed: sql<number>`count(*) filter (where ${releaseAlerts.status} = 'confirmed' and ${releaseAlerts.notifiedAt} is null)::int`,
      notified: sql<number>`count(*) filter (where ${releaseAlerts.notifiedAt} is not null)::int`,
    })
    .from(releaseAlerts)
    .where(and(eq(releaseAlerts.userId, userId), eq(releaseAlerts.bookId, bookId)));
  return row ?? { pending: 0, confirmed: 0, notified: 0 };
}

/** What a release mail says and where it points, for one book. */
export const releaseMailFields = {
  bookId: books.id,
  userId: books.userId,
  slug: books.slug,
  title: books.title,
  author: books.author,
  siteName: sql<string>`coalesce(nullif(btrim(${websites.websiteName}), ''), ${profiles.name})`,
  subdomain: websites.subdomain,
  customDomain: sql<
    string | null
  >`case when exists (select 1 from domain_verifications dv where dv.user_id = ${websites.userId} and lower(dv.domain) = lower(${websites.customDomain}) and dv.verified) then ${websites.customDomain} end`,
};

/**
 * One launch with readers still to tell (a visible book out by `today` with confirmed alerts not
 * yet queued), its row locked; other processes skip it meanwhile. A paused account's launches
 * wait (ADR 070, 073): their alerts stay untold and go once it is resumed.
 */
export async function lockOneDueLaunch(tx: Tx, today: string) {
  const [row] = await tx
    .select({ bookId: books.id, userId: books.userId, title: books.title })
    .from(books)
    .where(
      and(
        lte(books.releaseDate, today),
        eq(books.visibilityEnabled, true),
        sql`exists (select 1 from ${releaseAlerts} where ${releaseAlerts.bookId} = ${books.id}
          and ${releaseAlerts.status} = 'confirmed' and ${releaseAlerts.notifiedAt} is null)`,
        sql`not exists (select 1 from ${user} where ${user.id} = ${books.userId} and ${user.newsletterSendingPausedAt} is not null)`,
      ),
    )
    .orderBy(books.releaseDate, books.id)
    .limit(1)
    .for("update", { skipLocked: true });
  return row ?? null;
}

/** The book's confirmed alerts not told yet are told (their mails queued in the same transaction). */
export async function markNotified(tx: Tx, userId: string, bookId: string): Promise<void> {
  await tx
    .update(releaseAlerts)
    .set({ notifiedAt: new Date() })
    .where(
      and(
        eq(releaseAlerts.userId, userId),
        eq(releaseAlerts.bookId, bookId),
        eq(releaseAlerts.status, "confirmed"),
        isNull(releaseAlerts.notifiedAt),
      ),
    );
}

/** What one reader's release mail is made of, read when it is sent: the alert and its book. */
export async function selectAlertCopy(db: Conn, alertId: string) {
  const [row] = await db
    .select({
      ...releaseMailFields,
      releaseDate: books.releaseDate,
      alertId: releaseAlerts.id,
      email: releaseAlerts.email,
      status: releaseAlerts.status,
    })
    .from(releaseAlerts)
    // The alert's own author's book: a row never reaches another author's.
    .innerJoin(books, and(eq(books.id, releaseAlerts.bookId), eq(books.userId, releaseAlerts.userId)))
    .innerJoin(websites, eq(websites.userId, books.userId))
    .innerJoin(profiles, eq(profiles.id, books.userId))
    .where(eq(releaseAlerts.id, alertId));
  return row ?? null;
}

/** One of the author's books, with what its release mail needs. */
export async function selectReleaseBook(db: Conn, userId: string, bookId: string) {
  const [row] = await db
    .select({ ...releaseMailFields, releaseDate: books.releaseDate, email: profiles.email })
    .from(books)
    .innerJoin(websites, eq(websites.userId, books.userId))
    .innerJoin(profiles, eq(profiles.id, books.userId))
    .where(and(eq(books.userId, userId), eq(books.id, bookId)));
  return row ?? null;
}
