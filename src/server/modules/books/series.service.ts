// Series (ADR 034): listing an author's series with their books in reading order, creating,
// renaming (the books follow; the old address redirects), describing, reordering and removing
// them. Every change marks the site changed in its transaction (books.service `change`).
import type { Db, Tx } from "../../../db/client.ts";
import {
  SERIES_MESSAGES,
  type Series,
  type SeriesCreateInput,
  type SeriesUpdateInput,
} from "../../../shared/schemas/series.ts";
import { slugify } from "../../../shared/slug.ts";
import { conflictError, DomainError, notFoundError } from "../../lib/domain-error.ts";
import { change } from "./books.service.ts";
import * as q from "./series.queries.ts";

export const seriesNotFound = () => notFoundError(SERIES_MESSAGES.notFound);
const nameTaken = () => conflictError(SERIES_MESSAGES.taken, { field: "name" });

const key = q.seriesNameKey;

/** Refuses a name that would give another of the author's series' address (a 409 on `field`). */
async function assertOwnAddress(tx: Tx, userId: string, name: string, field: string, except?: string) {
  const other = await q.selectSeriesSharingAddress(tx, userId, name, except);
  if (other) throw conflictError(SERIES_MESSAGES.sameAddress(other.name), { field });
}

/** Every series of the author's, by name, each with its books in reading order. */
export async function listSeries(db: Db | Tx, userId: string): Promise<Series[]> {
  const [rows, named] = await Promise.all([q.selectSeriesRows(db, userId), q.selectBooksInSeries(db, userId)]);
  const byName = new Map<string, Series["books"]>();
  for (const b of named) {
    if (!b.seriesName?.trim()) continue;
    const k = key(b.seriesName);
    byName.set(k, [...(byName.get(k) ?? []), b]);
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: slugify(r.name, "series"),
    description: r.description,
    books: (byName.get(key(r.name)) ?? [])
      .map(({ id, title, orderInSeries, visibilityEnabled }) => ({ id, title, orderInSeries, visibilityEnabled }))
      // Stable: books with the same number, or none, keep the site's order.
      .sort((a, b) => (a.orderInSeries ?? Number.MAX_SAFE_INTEGER) - (b.orderInSeries ?? Number.MAX_SAFE_INTEGER)),
  }));
}

async function one(db: Db | Tx, userId: string, id: string): Promise<Series> {
  const found = (await listSeries(db, userId)).find((s) => s.id === id);
  if (!found) throw seriesNotFound();
  return found;
}

export async function createSeries(db: Db, userId: string, input: SeriesCreateInput): Promise<Series> {
  const row = await change(db, userId, async (tx) => {
    await assertOwnAddress(tx, userId, input.name, "name");
    const made = await q.insertSeries(tx, userId, { name: input.name, description: input.description ?? null });
    if (!made) throw nameTaken();
    return made;
  });
  return one(db, userId, row.id);
}

/** A new name moves the series' books with it; a name another series has is refused. */
export async function updateSeries(db: Db, userId: string, id: string, input: SeriesUpdateInput): Promise<Series> {
  await change(db, userId, async (tx) => {
    const current = await q.selectSeriesRow(tx, userId, id);
    if (!current) throw seriesNotFound();
    if (input.name !== undefined && key(input.name) !== key(current.name)) {
      const other = await q.selectSeriesByName(tx, userId, input.name);
      if (other && other.id !== id) throw nameTaken();
      await assertOwnAddress(tx, userId, input.name, "name", id);
    }
    await q.updateSeriesRow(tx, userId, id, input);
    if (input.name !== undefined && input.name !== current.name) {
      await q.renameBooksSeries(tx, userId, current.name, input.name);
      const from = slugify(current.name, "series");
      const to = slugify(input.name, "series");
      if (from !== to) await q.recordSeriesSlugChange(tx, userId, id, from, to);
    }
  });
  return one(db, userId, id);
}

/** The reading order: exactly the series' books, each once; they are numbered 1…n. */
export async function orderSeries(db: Db, userId: string, id: string, bookIds: string[]): Promise<Series> {
  await change(db, userId, async (tx) => {
    const current = await one(tx, userId, id);
    const ids = new Set(bookIds.map((x) => x.toLowerCase()));
    const members = new Set(current.books.map((b) => b.id));
    if (ids.size !== bookIds.length || ids.size !== members.size || [...ids].some((x) => !members.has(x))) {
      throw new DomainError("validation_failed", SERIES_MESSAGES.order, { field: "bookIds" });
    }
    await q.writeSeriesOrder(tx, userId, [...ids]);
  });
  return one(db, userId, id);
}

/** The series goes; its books stay, in no series. */
export async function deleteSeries(db: Db, userId: string, id: string): Promise<void> {
  await change(db, userId, async (tx) => {
    const current = await q.selectSeriesRow(tx, userId, id);
    if (!current) throw seriesNotFound();
    await q.renameBooksSeries(tx, userId, current.name, null);
    await q.deleteSeriesRow(tx, userId, id);
  });
}
