// The author's catalogue. Every function takes the owner's id (from the session) and answers
// 'Book not found' for a book that is not theirs. Every change runs in one transaction that
// first locks the author (so limit checks, featured flags and positions never race), and marks
// the author's public site as changed.
import type { Db, Tx } from "../../../db/client.ts";
import type { ImageVariants } from "../../../db/schema/books.ts";
import { bookSlugOf } from "../../../shared/book-path.ts";
import type { Tier } from "../../../shared/enums.ts";
import { bookLimit, PLANS } from "../../../shared/plans.ts";
import {
  BOOK_MESSAGES,
  type Book,
  type BookCreateInput,
  type BookDetail,
  type BookUpdateInput,
  type Capacity,
  type RetailerLinkInput,
  type ReviewInput,
} from "../../../shared/schemas/book.ts";
import { SERIES_MESSAGES } from "../../../shared/schemas/series.ts";
import { conflictError, DomainError, notFoundError } from "../../lib/domain-error.ts";
import { cleanAuthorHtml } from "../../lib/html.ts";
import type { Storage } from "../../lib/storage.ts";
import { getSubscription, tierOf } from "../billing/billing.service.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import { bookView, linkView, reviewView } from "./book-views.ts";
import * as q from "./books.queries.ts";
import { coverDir } from "./covers.ts";
import { ensureSeries, selectSeriesSharingAddress } from "./series.queries.ts";

export const bookNotFound = () => notFoundError(BOOK_MESSAGES.notFound);
const limitReached = () => new DomainError("plan_limit_reached", BOOK_MESSAGES.limit);
/** Showing one more book than the plan shows: what to do instead, not the spec's add-a-book words. */
const showLimitReached = (tier: Tier) =>
  new DomainError("plan_limit_reached", BOOK_MESSAGES.showLimit(PLANS[tier].name, bookLimit(tier)), {
    field: "visibilityEnabled",
  });

// ---------------------------------------------------------------------------------------------
// Plan limit.

async function planLimit(db: Db | Tx, userId: string): Promise<{ tier: Tier; limit: number }> {
  const { tier } = await getSubscription(db, userId);
  return { tier, limit: bookLimit(tier) };
}

/**
 * How full the plan is. `used` counts every book (hidden ones too: the limit is on books kept);
 * `shown` is what readers see, never more than the limit; `hiddenByPlan` are kept but not shown
 * because of the plan (hidden when it shrank, or beyond it by position if the plan shrank around us).
 */
export async function getCapacity(db: Db, userId: string): Promise<Capacity> {
  const [{ tier, limit }, rows] = [await planLimit(db, userId), await q.selectBooks(db, userId)];
  const visible = rows.filter((b) => b.visibilityEnabled).length;
  const used = rows.length;
  return {
    tier,
    limit,
    used,
    shown: Math.min(visible, limit),
    hiddenByPlan: rows.filter((b) => b.hiddenByPlan).length + Math.max(0, visible - limit),
    canAdd: used < limit,
  };
}

/**
 * A choice of the books that stay shown on `tier` (ADR 054): the author's own books, no more than
 * that plan shows. Checked before anything changes, at the provider or here.
 */
export async function checkBooksToKeep(db: Db, userId: string, tier: Tier, ids: readonly string[]) {
  const limit = bookLimit(tier);
  if (ids.length > limit)
    throw new DomainError("validation_failed", BOOK_MESSAGES.keepAtMost(PLANS[tier].name, limit), {
      field: "keepVisible",
    });
  const own = new Set(await q.selectBookIds(db, userId));
  if (ids.some((id) => !own.has(id))) throw bookNotFound();
}

/** How many books readers see now that they would no longer see on `tier` (0 for an upgrade). */
export async function booksHiddenByPlan(db: Db, userId: string, tier: Tier): Promise<number> {
  const [{ limit }, visible] = [await planLimit(db, userId), await q.countBooks(db, userId, { visibleOnly: true })];
  return Math.max(0, Math.min(visible, limit) - Math.min(visible, bookLimit(tier)));
}

/**
 * Which of the author's books the plan does not cover: visible books beyond the limit, by
 * position. After a downgrade they are kept but not shown publicly until the author upgrades or
 * hides/removes others.
 */
export function overLimitIds(ordered: { id: string; visibilityEnabled: boolean }[], limit: number): Set<string> {
  const over = new Set<string>();
  let visible = 0;
  for (const b of ordered) {
    if (!b.visibilityEnabled) continue;
    visible++;
    if (visible > limit) over.add(b.id);
  }
  return over;
}

// ---------------------------------------------------------------------------------------------
// Reads.

export async function listBooks(db: Db, userId: string): Promise<Book[]> {
  // The books and the plan's tier in one read; no books need no limit.
  const { rows, planTier } = await q.selectBooksWithPlan(db, userId);
  const over = rows.length ? overLimitIds(rows, bookLimit(tierOf(planTier))) : new Set<string>();
  return rows.map((r) => bookView(r, over.has(r.id)));
}

async function detail(db: Db | Tx, userId: string, row: q.BookRow): Promise<BookDetail> {
  const [links, genres, reviewRows, ids] = [
    await q.selectRetailerLinks(db, row.id),
    await q.selectGenres(db, row.id),
    await q.selectReviews(db, row.id),
    await q.selectBooks(db, userId),
  ];
  const { limit } = await planLimit(db, userId);
  return {
    ...bookView(row, overLimitIds(ids, limit).has(row.id)),
    retailerLinks: links.map(linkView),
    genres,
    reviews: reviewRows.map(reviewView),
  };
}

export async function getBook(db: Db, userId: string, bookId: string): Promise<BookDetail> {
  const row = await q.selectBook(db, userId, bookId);
  if (!row) throw bookNotFound();
  return detail(db, userId, row);
}

/** The book, if it is this author's; for routes that check before doing expensive work. */
export async function assertOwnBook(db: Db, userId: string, bookId: string): Promise<void> {
  if (!(await q.selectBook(db, userId, bookId))) throw bookNotFound();
}

// ---------------------------------------------------------------------------------------------
// Writes.

/** One locked transaction per change; the site is marked changed before it commits. */
export async function change<T>(db: Db, userId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    if (!(await q.lockAuthor(tx, userId))) throw bookNotFound();
    const result = await fn(tx);
    await markSiteChanged(tx, userId);
    return result;
  });
}

export async function ownBook(tx: Tx, userId: string, bookId: string): Promise<q.BookRow> {
  const row = await q.selectBook(tx, userId, bookId);
  if (!row) throw bookNotFound();
  return row;
}

type BookFields = Omit<BookUpdateInput, "retailerLinks" | "genres" | "reviews">;

/** The columns a create or update writes, with the cross-field rules applied. */
async function columns(
  tx: Tx,
  userId: string,
  input: BookFields,
  current: Pick<q.BookRow, "promoBadgeEnabled" | "promoBadgeText"> | null,
) {
  const values: q.BookValues = { ...input };
  if (input.shortBlurb !== undefined) values.shortBlurb = cleanAuthorHtml(input.shortBlurb);
  const promoOn = input.promoBadgeEnabled ?? current?.promoBadgeEnabled ?? false;
  const promoText = input.promoBadgeText !== undefined ? input.promoBadgeText : (current?.promoBadgeText ?? null);
  if (!promoOn) {
    // Promo text exists only with the promo badge.
    if (promoText !== null) values.promoBadgeText = null;
  } else if (!promoText) {
    throw new DomainError("validation_failed", BOOK_MESSAGES.promoText, { field: "promoBadgeText" });
  }
  // A series a book names exists as a series (ADR 034); the book keeps its own spelling. A name
  // that would share another series' address is refused (series.service does the same).
  if (values.seriesName) {
    const other = await selectSeriesSharingAddress(tx, userId, values.seriesName);
    if (other) throw conflictError(SERIES_MESSAGES.sameAddress(other.name), { field: "seriesName" });
    await ensureSeries(tx, userId, values.seriesName);
  }
  return values;
}

async function writeChildren(
  tx: Tx,
  bookId: string,
  input: {
    retailerLinks?: RetailerLinkInput[] | undefined;
    genres?: string[] | undefined;
    reviews?: ReviewInput[] | undefined;
  },
) {
  if (input.retailerLinks) await q.syncRetailerLinks(tx, bookId, input.retailerLinks);
  if (input.genres) await q.replaceGenres(tx, bookId, input.genres);
  if (input.reviews) await q.syncReviews(tx, bookId, input.reviews);
}

/**
 * `base`, else `base-2`, `base-3`…: the first address the author has not used (ADR 051). The
 * author is locked (`change`), so two saves of theirs never pick at once.
 */
async function freeSlug(tx: Tx, userId: string, title: string, bookId?: string): Promise<string> {
  const base = bookSlugOf(title);
  const taken = await q.selectSlugsLike(tx, userId, base, bookId);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function createBook(db: Db, userId: string, input: BookCreateInput): Promise<BookDetail> {
  return change(db, userId, async (tx) => {
    const { limit } = await planLimit(tx, userId);
    if ((await q.countBooks(tx, userId)) >= limit) throw limitReached();
    const { retailerLinks, genres, reviews, ...fields } = input;
    const before = await q.selectBookIds(tx, userId);
    if (fields.isFeatured) await q.unfeatureOthers(tx, userId, null);
    const row = await q.insertBook(tx, userId, {
      ...(await columns(tx, userId, fields, null)),
      title: input.title,
      slug: await freeSlug(tx, userId, input.title),
      author: input.author,
    });
    // A new book goes last: adding a backlist in any order keeps that order, and no other
    // book's position moves (ADR 054).
    await q.writeOrder(tx, userId, [...before, row.id]);
    await writeChildren(tx, row.id, { retailerLinks, genres, reviews });
    return detail(tx, userId, await ownBook(tx, userId, row.id));
  });
}

/** Making a hidden book visible must keep the visible books within the plan. */
async function checkCanShow(tx: Tx, userId: string) {
  const { tier, limit } = await planLimit(tx, userId);
  if ((await q.countBooks(tx, userId, { visibleOnly: true })) >= limit) throw showLimitReached(tier);
}

export async function updateBook(db: Db, userId: string, bookId: string, input: BookUpdateInput): Promise<BookDetail> {
  return change(db, userId, async (tx) => {
    const current = await ownBook(tx, userId, bookId);
    const { retailerLinks, genres, reviews, ...fields } = input;
    const showing = fields.visibilityEnabled === true && !current.visibilityEnabled;
    if (showing) await checkCanShow(tx, userId);
    if (fields.isFeatured === true && !current.isFeatured) await q.unfeatureOthers(tx, userId, bookId);
    const values = await columns(tx, userId, fields, current);
    // Shown by the author's own hand: no longer the plan's to show again.
    if (showing) values.hiddenByPlan = false;
    // A title that slugs differently moves the book; its old address keeps answering (301).
    if (fields.title !== undefined && bookSlugOf(fields.title) !== bookSlugOf(current.title)) {
      const slug = await freeSlug(tx, userId, fields.title, bookId);
      if (slug !== current.slug) {
        await q.recordSlugChange(tx, userId, bookId, current.slug, slug);
        values.slug = slug;
      }
    }
    await q.updateBook(tx, userId, bookId, values);
    await writeChildren(tx, bookId, { retailerLinks, genres, reviews });
    return detail(tx, userId, await ownBook(tx, userId, bookId));
  });
}

export async function setVisibility(db: Db, userId: string, bookId: string, visible: boolean): Promise<Book> {
  return change(db, userId, async (tx) => {
    const current = await ownBook(tx, userId, bookId);
    if (current.visibilityEnabled === visible) return bookView(current);
    if (visible) await checkCanShow(tx, userId);
    const row = await q.updateBook(tx, userId, bookId, { visibilityEnabled: visible, hiddenByPlan: false });
    if (!row) throw bookNotFound();
    return bookView(row);
  });
}

export async function deleteBook(db: Db, userId: string, bookId: string): Promise<void> {
  await change(db, userId, async (tx) => {
    if (!(await q.deleteBook(tx, userId, bookId))) throw bookNotFound();
    await q.writeOrder(tx, userId, await q.selectBookIds(tx, userId));
  });
}

/** Moves a book to a 1-based position (clamped to 1..total) and rewrites every position 0..n-1. */
export async function moveBook(db: Db, userId: string, bookId: string, position: number): Promise<Book[]> {
  await change(db, userId, async (tx) => {
    const ids = await q.selectBookIds(tx, userId);
    const from = ids.indexOf(bookId);
    if (from < 0) throw bookNotFound();
    const to = Math.min(Math.max(position, 1), ids.length) - 1;
    ids.splice(from, 1);
    ids.splice(to, 0, bookId);
    await q.writeOrder(tx, userId, ids);
  });
  return listBooks(db, userId);
}

/**
 * Puts the listed books in the given order. Books the list leaves out (added in another tab
 * meanwhile) keep their relative order after them; an id that is not the author's is a 404.
 */
export async function orderBooks(db: Db, userId: string, orderedIds: string[]): Promise<Book[]> {
  await change(db, userId, async (tx) => {
    const ids = await q.selectBookIds(tx, userId);
    const own = new Set(ids);
    if (orderedIds.some((id) => !own.has(id))) throw bookNotFound();
    const listed = new Set(orderedIds);
    await q.writeOrder(tx, userId, [...orderedIds, ...ids.filter((id) => !listed.has(id))]);
  });
  return listBooks(db, userId);
}

export async function setCover(db: Db, userId: string, bookId: string, variants: ImageVariants | null): Promise<Book> {
  return change(db, userId, async (tx) => {
    const row = await q.updateBook(tx, userId, bookId, {
      coverImageUrl: variants?.at(-1)?.url ?? null,
      coverImageVariants: variants,
    });
    if (!row) throw bookNotFound();
    return bookView(row);
  });
}

/** An upload stores its files before it points the book at them; this long it may take. */
export const COVER_UPLOAD_GRACE_MS = 60_000;

/**
 * Deletes the stored versions of a book's cover that the book no longer points at (replaced or
 * removed covers, or every version once the book is gone). Files younger than `graceMs` stay:
 * they may belong to an upload in another request that has not reached the database yet.
 */
export async function pruneCoverFiles(
  db: Db,
  storage: Storage,
  userId: string,
  bookId: string,
  graceMs = COVER_UPLOAD_GRACE_MS,
): Promise<number> {
  const row = await q.selectBook(db, userId, bookId);
  const keep = (row?.coverImageVariants ?? []).map((v) => v.url);
  return storage.prune(coverDir(userId, bookId), keep, graceMs);
}
