// Book rows and what hangs off them. Every query that reaches a book takes the owner's id; the
// child tables are only touched through a book id the caller has already checked.
import { and, asc, count, desc, eq, getTableColumns, inArray, like, ne, notInArray, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { prepareFlat } from "../../../db/prepared.ts";
import { bookGenres, bookSlugs, books, retailerLinks, reviews, subscriptions, user } from "../../../db/schema/index.ts";
import { linkCurrency, type RetailerLinkInput, type ReviewInput } from "../../../shared/schemas/book.ts";
import { type StoreCurrency, storefrontOfUrl } from "../../../shared/storefronts.ts";
import { deleteOwned, selectOwned, updateOwned } from "../../lib/owned-rows.ts";

type Conn = Db | Tx;
export type BookRow = typeof books.$inferSelect;
export type BookValues = Partial<Omit<typeof books.$inferInsert, "id" | "userId" | "createdAt">>;

/**
 * Serialises every change to one author's catalogue: the limit check and the insert, or the
 * read and rewrite of all positions, cannot interleave with another request's. The author's
 * user row always exists; NO KEY UPDATE still lets foreign keys to it be checked meanwhile.
 */
export async function lockAuthor(tx: Tx, userId: string): Promise<boolean> {
  const rows = await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for("no key update");
  return rows.length > 0;
}

/** Display order: position, then newest first (the spec's order), then id so ties are stable. */
const displayOrder = [asc(books.sortOrder), desc(books.createdAt), asc(books.id)] as const;

export function selectBooks(db: Conn, userId: string): Promise<BookRow[]> {
  return db
    .select()
    .from(books)
    .where(eq(books.userId, userId))
    .orderBy(...displayOrder);
}

/** A book as the list reads it: every column its answer shows, so not the owner (who asked). */
const { userId: _owner, ...listColumns } = getTableColumns(books);
export type ListRow = Omit<BookRow, "userId">;

/** The list's columns, then the plan's tier as stored (a scalar subquery: one round trip). */
const listWithPlan = {
  ...listColumns,
  planTier: sql<
    string | null
  >`(select ${subscriptions.tier} from ${subscriptions} where ${subscriptions.userId} = ${sql.placeholder("userId")})`,
};

function prepareBooksWithPlan(db: Db) {
  const query = db
    .select(listWithPlan)
    .from(books)
    .where(eq(books.userId, sql.placeholder("userId")))
    .orderBy(...displayOrder);
  return prepareFlat<ListRow & { planTier: string | null }>(db, "books_of_author_with_plan", listWithPlan, query);
}

const booksWithPlan = new WeakMap<Db, ReturnType<typeof prepareBooksWithPlan>>();

/**
 * The dashboard's list in one round trip: the author's books in display order, and the tier of
 * their subscription as stored (null without one; undefined when there are no books, which need
 * no plan). Built once per database handle, so Drizzle neither assembles the SQL nor maps the
 * rows cell by cell every time (ADR 082).
 */
export async function selectBooksWithPlan(
  db: Db,
  userId: string,
): Promise<{ rows: ListRow[]; planTier: string | null | undefined }> {
  let statement = booksWithPlan.get(db);
  if (!statement) {
    statement = prepareBooksWithPlan(db);
    booksWithPlan.set(db, statement);
  }
  const rows = await statement.execute({ userId });
  return { rows, planTier: rows[0]?.planTier };
}

export async function selectBookIds(db: Conn, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: books.id })
    .from(books)
    .where(eq(books.userId, userId))
    .orderBy(...displayOrder);
  return rows.map((r) => r.id);
}

export function selectBook(db: Conn, userId: string, bookId: string): Promise<BookRow | null> {
  return selectOwned(db, books, userId, bookId);
}

export async function countBooks(db: Conn, userId: string, opts: { visibleOnly?: boolean } = {}) {
  const [row] = await db
    .select({ n: count() })
    .from(books)
    .where(and(eq(books.userId, userId), opts.visibleOnly ? eq(books.visibilityEnabled, true) : undefined));
  return Number(row?.n ?? 0);
}

export async function insertBook(
  tx: Tx,
  userId: string,
  values: BookValues & { title: string; slug: string; author: string },
) {
  const [row] = await tx
    .insert(books)
    .values({ ...values, userId })
    .returning();
  if (!row) throw new Error("book not inserted");
  return row;
}

export function updateBook(tx: Tx, userId: string, bookId: string, values: BookValues): Promise<BookRow | null> {
  return updateOwned(tx, books, userId, bookId, values);
}

export function deleteBook(tx: Tx, userId: string, bookId: string): Promise<boolean> {
  return deleteOwned(tx, books, userId, bookId);
}

/**
 * Shows or hides the listed books in one statement. Shown books drop the plan's mark; books the
 * plan hides carry it (ADR 054), so a bigger plan can show them again.
 */
export async function setShown(tx: Tx, userId: string, ids: string[], shown: boolean, byPlan = false) {
  if (ids.length === 0) return;
  await tx
    .update(books)
    .set({ visibilityEnabled: shown, hiddenByPlan: !shown && byPlan, updatedAt: new Date() })
    .where(and(eq(books.userId, userId), inArray(books.id, ids)));
}

/**
 * The author's book addresses that are `base` or `base-N`: live books' slugs and earlier ones
 * (which keep redirecting), except those of book `except` (a book may take back its own old one).
 */
export async function selectSlugsLike(tx: Tx, userId: string, base: string, except?: string): Promise<Set<string>> {
  const matches = (col: typeof books.slug | typeof bookSlugs.slug) => or(eq(col, base), like(col, `${base}-%`));
  const live = await tx
    .select({ slug: books.slug })
    .from(books)
    .where(and(eq(books.userId, userId), matches(books.slug), except ? ne(books.id, except) : undefined));
  const old = await tx
    .select({ slug: bookSlugs.slug })
    .from(bookSlugs)
    .where(
      and(eq(bookSlugs.userId, userId), matches(bookSlugs.slug), except ? ne(bookSlugs.bookId, except) : undefined),
    );
  return new Set([...live, ...old].map((r) => r.slug));
}

/** Keeps a book's previous address, so links to it redirect; taking back an old one removes it. */
export async function recordSlugChange(tx: Tx, userId: string, bookId: string, from: string, to: string) {
  await tx
    .delete(bookSlugs)
    .where(and(eq(bookSlugs.userId, userId), eq(bookSlugs.bookId, bookId), eq(bookSlugs.slug, to)));
  await tx.insert(bookSlugs).values({ userId, bookId, slug: from }).onConflictDoNothing();
}

/** Clears the featured flag on the author's other books (the database allows one). */
export async function unfeatureOthers(tx: Tx, userId: string, keepId: string | null) {
  await tx
    .update(books)
    .set({ isFeatured: false, updatedAt: new Date() })
    .where(and(eq(books.userId, userId), eq(books.isFeatured, true), keepId ? ne(books.id, keepId) : undefined));
}

/** Sets every listed book's position to its index, in one statement. */
export async function writeOrder(tx: Tx, userId: string, orderedIds: string[]) {
  if (orderedIds.length === 0) return;
  const values = sql.join(
    orderedIds.map((id, i) => sql`(${id}::uuid, ${i}::int)`),
    sql`, `,
  );
  await tx.execute(sql`
    update ${books} set sort_order = v.pos, updated_at = now()
    from (values ${values}) as v(id, pos)
    where ${books.id} = v.id and ${books.userId} = ${userId} and ${books.sortOrder} is distinct from v.pos`);
}

// ---------------------------------------------------------------------------------------------
// Retailer links, genres and reviews of one (already checked) book.

export type RetailerLinkRow = typeof retailerLinks.$inferSelect;
export type ReviewRow = typeof reviews.$inferSelect;

export function selectRetailerLinks(db: Conn, bookId: string): Promise<RetailerLinkRow[]> {
  return db
    .select()
    .from(retailerLinks)
    .where(eq(retailerLinks.bookId, bookId))
    .orderBy(asc(retailerLinks.sortOrder), asc(retailerLinks.createdAt), asc(retailerLinks.id));
}

/** The author's order, which is the order the public pages show (they read it the same way). */
export async function selectGenres(db: Conn, bookId: string): Promise<string[]> {
  const rows = await db
    .select({ name: bookGenres.genreName })
    .from(bookGenres)
    .where(eq(bookGenres.bookId, bookId))
    .orderBy(asc(bookGenres.position), asc(bookGenres.id));
  return rows.map((r) => r.name);
}

/**
 * The order the public book page shows them (`sites.queries.ts`): the latest review date first,
 * undated last, then the latest entered; the editor lists them the same way.
 */
export function selectReviews(db: Conn, bookId: string): Promise<ReviewRow[]> {
  return db
    .select()
    .from(reviews)
    .where(eq(reviews.bookId, bookId))
    .orderBy(sql`${reviews.reviewDate} desc nulls last`, desc(reviews.createdAt), desc(reviews.id));
}

/**
 * Makes the book's links exactly `links`, in that order. A link whose id is one of this book's
 * is updated in place; any other id (stale, or another book's) is not trusted: a new row is made.
 */
export async function syncRetailerLinks(tx: Tx, bookId: string, links: RetailerLinkInput[]) {
  const existing = new Set(
    (await tx.select({ id: retailerLinks.id }).from(retailerLinks).where(eq(retailerLinks.bookId, bookId))).map(
      (r) => r.id,
    ),
  );
  const kept: string[] = [];
  const now = new Date();
  for (const [i, l] of links.entries()) {
    // Left out, the store is read from the address; a price is in the store's currency unless given.
    const storefront = l.storefront === undefined ? storefrontOfUrl(l.retailerUrl) : l.storefront;
    const priceMinor = l.priceMinor ?? null;
    const values = {
      retailerName: l.retailerName,
      retailerUrl: l.retailerUrl,
      ...(l.retailerIcon !== undefined ? { retailerIcon: l.retailerIcon } : {}),
      storefront,
      priceMinor,
      currency: priceMinor === null ? null : (linkCurrency({ storefront, currency: l.currency }) as StoreCurrency),
      sortOrder: i,
      updatedAt: now,
    };
    if (l.id && existing.has(l.id) && !kept.includes(l.id)) {
      await tx
        .update(retailerLinks)
        .set(values)
        .where(and(eq(retailerLinks.bookId, bookId), eq(retailerLinks.id, l.id)));
      kept.push(l.id);
    } else {
      const [row] = await tx
        .insert(retailerLinks)
        .values({ ...values, bookId })
        .returning({ id: retailerLinks.id });
      if (row) kept.push(row.id);
    }
  }
  await tx
    .delete(retailerLinks)
    .where(and(eq(retailerLinks.bookId, bookId), kept.length ? notInArray(retailerLinks.id, kept) : undefined));
}

export async function replaceGenres(tx: Tx, bookId: string, genres: string[]) {
  await tx.delete(bookGenres).where(eq(bookGenres.bookId, bookId));
  if (genres.length)
    await tx.insert(bookGenres).values(genres.map((genreName, position) => ({ bookId, genreName, position })));
}

function reviewValues(r: Partial<ReviewInput>) {
  return {
    ...(r.rating !== undefined ? { rating: r.rating } : {}),
    ...(r.reviewerName !== undefined ? { reviewerName: r.reviewerName } : {}),
    ...(r.reviewText !== undefined ? { reviewText: r.reviewText } : {}),
    ...(r.reviewDate !== undefined ? { reviewDate: r.reviewDate } : {}),
  };
}

/** Same rule as the links: this book's ids are updated, others become new reviews. */
export async function syncReviews(tx: Tx, bookId: string, list: ReviewInput[]) {
  const existing = new Set(
    (await tx.select({ id: reviews.id }).from(reviews).where(eq(reviews.bookId, bookId))).map((r) => r.id),
  );
  const kept: string[] = [];
  // Reviews are listed latest entered first among equal dates, so the new reviews of one save
  // get falling created_at values: they keep the order they were listed in.
  const base = Date.now();
  for (const [i, r] of list.entries()) {
    if (r.id && existing.has(r.id) && !kept.includes(r.id)) {
      await tx
        .update(reviews)
        .set(reviewValues(r))
        .where(and(eq(reviews.bookId, bookId), eq(reviews.id, r.id)));
      kept.push(r.id);
    } else {
      const row = await insertReview(tx, bookId, r, new Date(base - i));
      kept.push(row.id);
    }
  }
  await tx
    .delete(reviews)
    .where(and(eq(reviews.bookId, bookId), kept.length ? notInArray(reviews.id, kept) : undefined));
}

export async function insertReview(tx: Tx, bookId: string, r: ReviewInput, createdAt = new Date()) {
  const [row] = await tx
    .insert(reviews)
    .values({
      bookId,
      reviewText: r.reviewText,
      rating: r.rating ?? null,
      reviewerName: r.reviewerName ?? null,
      reviewDate: r.reviewDate ?? null,
      createdAt,
    })
    .returning();
  if (!row) throw new Error("review not inserted");
  return row;
}

export async function updateReview(tx: Tx, bookId: string, reviewId: string, r: Partial<ReviewInput>) {
  const [row] = await tx
    .update(reviews)
    .set(reviewValues(r))
    .where(and(eq(reviews.bookId, bookId), eq(reviews.id, reviewId)))
    .returning();
  return row ?? null;
}

export async function deleteReview(tx: Tx, bookId: string, reviewId: string): Promise<boolean> {
  const rows = await tx
    .delete(reviews)
    .where(and(eq(reviews.bookId, bookId), eq(reviews.id, reviewId)))
    .returning({ id: reviews.id });
  return rows.length > 0;
}
