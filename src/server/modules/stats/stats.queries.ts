// The author's own traffic rows. Every query starts from the author's website (by user id), so
// another site's counts are never in reach.
import { and, desc, eq, gte, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import {
  blogPosts,
  bookSlugs,
  bookStoreClickers,
  bookStoreStats,
  books,
  visitSalts,
  websiteAnalytics,
  websitePageStats,
  websiteReferrerStats,
  websites,
} from "../../../db/schema/index.ts";
import { isUuid } from "../../../shared/ids.ts";

export async function selectWebsiteId(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ id: websites.id }).from(websites).where(eq(websites.userId, userId));
  return row?.id ?? null;
}

export function selectDaily(db: Db, websiteId: string, from: string) {
  return db
    .select({
      date: websiteAnalytics.date,
      pageViews: websiteAnalytics.pageViews,
      visitors: websiteAnalytics.uniqueVisitors,
    })
    .from(websiteAnalytics)
    .where(and(eq(websiteAnalytics.websiteId, websiteId), gte(websiteAnalytics.date, from)));
}

/** Views per path over the range, most first. `prefix` narrows to one kind of page. */
export function selectTopPaths(db: Db, websiteId: string, from: string, limit: number, prefix?: string) {
  const views = sql<number>`sum(${websitePageStats.views})::int`;
  return db
    .select({ path: websitePageStats.path, views })
    .from(websitePageStats)
    .where(
      and(
        eq(websitePageStats.websiteId, websiteId),
        gte(websitePageStats.date, from),
        prefix ? sql`starts_with(${websitePageStats.path}, ${prefix})` : undefined,
      ),
    )
    .groupBy(websitePageStats.path)
    .orderBy(desc(views), websitePageStats.path)
    .limit(limit);
}

export function selectTopSources(db: Db, websiteId: string, from: string, limit: number) {
  const visits = sql<number>`sum(${websiteReferrerStats.visits})::int`;
  return db
    .select({ source: websiteReferrerStats.source, visits })
    .from(websiteReferrerStats)
    .where(and(eq(websiteReferrerStats.websiteId, websiteId), gte(websiteReferrerStats.date, from)))
    .groupBy(websiteReferrerStats.source)
    .orderBy(desc(visits), websiteReferrerStats.source)
    .limit(limit);
}

/** The author's own books and posts by id/slug, for naming their pages. */
/**
 * Current titles for the page paths shown: books by their address in `/book/{address}` (slug, an
 * earlier slug, or the id the addresses had before ADR 051), posts by slug.
 */
export async function selectTitles(db: Db, userId: string, bookAddresses: string[], slugs: string[]) {
  const ids = bookAddresses.filter((a) => isUuid(a));
  const [bookRows, oldRows, postRows] = await Promise.all([
    bookAddresses.length
      ? db
          .select({ id: books.id, slug: books.slug, title: books.title })
          .from(books)
          .where(
            and(
              eq(books.userId, userId),
              or(inArray(books.slug, bookAddresses), ids.length ? inArray(books.id, ids) : undefined),
            ),
          )
      : [],
    bookAddresses.length
      ? db
          .select({ slug: bookSlugs.slug, title: books.title })
          .from(bookSlugs)
          .innerJoin(books, eq(books.id, bookSlugs.bookId))
          .where(and(eq(bookSlugs.userId, userId), inArray(bookSlugs.slug, bookAddresses)))
      : [],
    slugs.length
      ? db
          .select({ slug: blogPosts.slug, title: blogPosts.title })
          .from(blogPosts)
          .where(and(eq(blogPosts.userId, userId), inArray(blogPosts.slug, slugs)))
      : [],
  ]);
  const bookTitles = new Map<string, string>(oldRows.map((b) => [b.slug, b.title]));
  for (const b of bookRows) {
    bookTitles.set(b.id, b.title);
    bookTitles.set(b.slug, b.title);
  }
  return { books: bookTitles, posts: new Map(postRows.map((p) => [p.slug, p.title])) };
}

/**
 * A click on a book's store link (ADR 036), counted only when this reader (a slice of a salted
 * hash) had not clicked a store of this book on `date`: the unique key decides across processes.
 * The book is the site's own (the caller found it). True when it was counted.
 */
export async function countFirstStoreClick(db: Db, bookId: string, store: string, date: string, reader: number) {
  return db.transaction(async (tx) => {
    const first = await tx
      .insert(bookStoreClickers)
      .values({ bookId, date, reader })
      .onConflictDoNothing()
      .returning({ reader: bookStoreClickers.reader });
    if (first.length === 0) return false;
    await tx
      .insert(bookStoreStats)
      .values({ bookId, date, store, clicks: 1 })
      .onConflictDoUpdate({
        target: [bookStoreStats.bookId, bookStoreStats.date, bookStoreStats.store],
        set: { clicks: sql`${bookStoreStats.clicks} + 1` },
      });
    return true;
  });
}

/** The day's visit salt (ADR 032), made by whichever process asks first. */
export async function daySalt(db: Db, date: string, fresh: string): Promise<string> {
  await db.insert(visitSalts).values({ date, salt: fresh }).onConflictDoNothing();
  const [row] = await db.select({ salt: visitSalts.salt }).from(visitSalts).where(eq(visitSalts.date, date));
  if (!row) throw new Error(`no visit salt for ${date}`);
  return row.salt;
}

/** Store clickers of days before `date` are of no more use: they go. */
export async function deleteStoreClickersBefore(db: Db, date: string) {
  await db.delete(bookStoreClickers).where(lt(bookStoreClickers.date, date));
}

/** Per book and store over the range: times shown first and clicks, the author's books only. */
export function selectStoreStats(db: Db, userId: string, from: string) {
  const shown = sql<number>`sum(${bookStoreStats.shown})::int`;
  const clicks = sql<number>`sum(${bookStoreStats.clicks})::int`;
  return db
    .select({ bookId: bookStoreStats.bookId, title: books.title, store: bookStoreStats.store, shown, clicks })
    .from(bookStoreStats)
    .innerJoin(books, eq(books.id, bookStoreStats.bookId))
    .where(and(eq(books.userId, userId), gte(bookStoreStats.date, from)))
    .groupBy(bookStoreStats.bookId, books.title, bookStoreStats.store)
    .orderBy(books.title, bookStoreStats.bookId, desc(clicks), desc(shown), bookStoreStats.store);
}
