// Launches (issue 17): the launch alerts (table `release_alerts`), readers waiting for a book, as
// the public form, its confirmation link and the launch-day job write them. Every author-side
// query takes the owner's id.
import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { books, profiles, releaseAlerts, websites } from "../../../db/schema/index.ts";

type Conn = Db | Tx;

/** A pending sign-up keeps its token (the mail can be sent again); null when already confirmed. */
export async function pendingToken(
  db: Db,
  r: { userId: string; bookId: string; email: string; token: string },
): Promise<string | null> {
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
 * Takes the confirmed alerts of books out by `today` that were never sent: marks them told and
 * returns them, in one statement (a reader is told once, whichever process runs the job).
 */
export async function takeDueAlerts(tx: Tx, today: string, limit: number) {
  const due = tx
    .select({ id: releaseAlerts.id })
    .from(releaseAlerts)
    .innerJoin(books, eq(books.id, releaseAlerts.bookId))
    .where(
      and(
        eq(releaseAlerts.status, "confirmed"),
        isNull(releaseAlerts.notifiedAt),
        lte(books.releaseDate, today),
        eq(books.visibilityEnabled, true),
      ),
    )
    .limit(limit);
  const taken = await tx
    .update(releaseAlerts)
    .set({ notifiedAt: new Date() })
    .where(inArray(releaseAlerts.id, due))
    .returning({ alertId: releaseAlerts.id, email: releaseAlerts.email, bookId: releaseAlerts.bookId });
  if (taken.length === 0) return [];
  const ids = [...new Set(taken.map((t) => t.bookId))];
  const about = await tx
    .select(releaseMailFields)
    .from(books)
    .innerJoin(websites, eq(websites.userId, books.userId))
    .innerJoin(profiles, eq(profiles.id, books.userId))
    .where(inArray(books.id, ids));
  const byBook = new Map(about.map((b) => [b.bookId, b]));
  return taken.flatMap((t) => {
    const b = byBook.get(t.bookId);
    return b ? [{ alertId: t.alertId, email: t.email, ...b }] : [];
  });
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
