// Series rows and the books' series names (ADR 034). Every query takes the owner's id.
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { bookSeries, bookSeriesSlugs, books } from "../../../db/schema/index.ts";
import { slugify } from "../../../shared/slug.ts";
import { deleteOwned, ownRow, selectOwned, updateOwned } from "../../lib/owned-rows.ts";

type Conn = Db | Tx;
export type SeriesRow = typeof bookSeries.$inferSelect;

/** A series name, case and outer spaces aside: two names with one key are one series. */
export const seriesNameKey = (name: string) => name.trim().toLowerCase();

/** Matches a series name, case and outer spaces aside (the unique index's expression). */
const sameName = (column: typeof books.seriesName | typeof bookSeries.name, name: string) =>
  sql`lower(btrim(${column})) = lower(btrim(${name}))`;

export function selectSeriesRows(db: Conn, userId: string): Promise<SeriesRow[]> {
  return db
    .select()
    .from(bookSeries)
    .where(eq(bookSeries.userId, userId))
    .orderBy(sql`lower(${bookSeries.name})`, asc(bookSeries.id));
}

export function selectSeriesRow(db: Conn, userId: string, id: string): Promise<SeriesRow | null> {
  return selectOwned(db, bookSeries, userId, id);
}

/** The author's books that name a series, in the site's order. */
export function selectBooksInSeries(db: Conn, userId: string) {
  return db
    .select({
      id: books.id,
      title: books.title,
      seriesName: books.seriesName,
      orderInSeries: books.orderInSeries,
      visibilityEnabled: books.visibilityEnabled,
    })
    .from(books)
    .where(and(eq(books.userId, userId), isNotNull(books.seriesName)))
    .orderBy(asc(books.sortOrder), asc(books.createdAt), asc(books.id));
}

/** A new series; null when the author already has one of that name. */
export async function insertSeries(
  tx: Tx,
  userId: string,
  values: { name: string; description?: string | null },
): Promise<SeriesRow | null> {
  const [row] = await tx
    .insert(bookSeries)
    .values({ userId, ...values })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/** The series a book names, made when it is new. */
export async function ensureSeries(tx: Tx, userId: string, name: string): Promise<void> {
  await insertSeries(tx, userId, { name });
}

/**
 * Another series of the author's whose name is not `name` but gives the same address,
 * /series/{slug}: "Saga" and "Saga!" would share one page. None when a series of this very name
 * exists: the name is that series'. `except`: the series being renamed.
 */
export async function selectSeriesSharingAddress(
  tx: Tx,
  userId: string,
  name: string,
  except?: string,
): Promise<SeriesRow | null> {
  const slug = slugify(name, "series");
  const key = seriesNameKey(name);
  const rows = (await selectSeriesRows(tx, userId)).filter((r) => r.id !== except);
  if (rows.some((r) => seriesNameKey(r.name) === key)) return null;
  return rows.find((r) => slugify(r.name, "series") === slug) ?? null;
}

/** Another series of the author's with this name, if any. */
export async function selectSeriesByName(tx: Tx, userId: string, name: string): Promise<SeriesRow | null> {
  const [row] = await tx
    .select()
    .from(bookSeries)
    .where(and(eq(bookSeries.userId, userId), sameName(bookSeries.name, name)));
  return row ?? null;
}

export async function updateSeriesRow(
  tx: Tx,
  userId: string,
  id: string,
  values: { name?: string; description?: string | null },
): Promise<void> {
  await updateOwned(tx, bookSeries, userId, id, values);
}

/** Moves the books of series `from` to the name `to` (a rename), or out of any series (null). */
export async function renameBooksSeries(tx: Tx, userId: string, from: string, to: string | null): Promise<void> {
  await tx
    .update(books)
    .set(
      to === null
        ? { seriesName: null, orderInSeries: null, updatedAt: new Date() }
        : { seriesName: to, updatedAt: new Date() },
    )
    .where(and(eq(books.userId, userId), sameName(books.seriesName, from)));
}

/** Numbers the books 1…n in the order given. */
export async function writeSeriesOrder(tx: Tx, userId: string, bookIds: string[]): Promise<void> {
  for (const [i, id] of bookIds.entries()) {
    await tx
      .update(books)
      .set({ orderInSeries: i + 1, updatedAt: new Date() })
      .where(ownRow(books, userId, id));
  }
}

export async function deleteSeriesRow(tx: Tx, userId: string, id: string): Promise<void> {
  await deleteOwned(tx, bookSeries, userId, id);
}

/**
 * Keeps a renamed series' previous address, so links to it redirect (the latest series to leave
 * an address gets it); a series taking back an old address of its own drops that row.
 */
export async function recordSeriesSlugChange(
  tx: Tx,
  userId: string,
  seriesId: string,
  from: string,
  to: string,
): Promise<void> {
  await tx
    .delete(bookSeriesSlugs)
    .where(
      and(eq(bookSeriesSlugs.userId, userId), eq(bookSeriesSlugs.seriesId, seriesId), eq(bookSeriesSlugs.slug, to)),
    );
  await tx
    .insert(bookSeriesSlugs)
    .values({ userId, seriesId, slug: from })
    .onConflictDoUpdate({
      target: [bookSeriesSlugs.userId, bookSeriesSlugs.slug],
      set: { seriesId, createdAt: new Date() },
    });
}
