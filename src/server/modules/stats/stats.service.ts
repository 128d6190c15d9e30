// The author's Stats: daily views and visitors, the most visited pages and books, and where
// readers came from, for the last 7, 30 or 90 days (today included, UTC days like the counts).
import { hash, randomBytes } from "node:crypto";
import type { Db } from "../../../db/client.ts";
import { isUuid } from "../../../shared/ids.ts";
import type { Stats, StatsRange } from "../../../shared/schemas/stats.ts";
import { SLUG_PATTERN } from "../../../shared/slug.ts";
import { storefrontLabel } from "../../../shared/storefronts.ts";
import { notFoundError } from "../../lib/domain-error.ts";
import * as q from "./stats.queries.ts";

const DAY_MS = 24 * 60 * 60_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What a reader would call the page at `path`; books and posts by their current titles. */
function labelOf(path: string, titles: { books: Map<string, string>; posts: Map<string, string> }): string {
  const fixed: Record<string, string> = {
    "/": "Home",
    "/books": "Books",
    "/about": "About",
    "/blog": "Blog",
    "/newsletter": "Newsletter",
    "/contact": "Contact",
    "/privacy": "Privacy & Legal",
  };
  if (fixed[path]) return fixed[path];
  if (path.startsWith("/book/")) return titles.books.get(path.slice(6)) ?? "A book no longer shown";
  if (path.startsWith("/blog/")) return titles.posts.get(path.slice(6)) ?? "A post since renamed or removed";
  return path;
}

export async function getStats(db: Db, userId: string, days: StatsRange, now = new Date()): Promise<Stats> {
  const websiteId = await q.selectWebsiteId(db, userId);
  if (!websiteId) throw notFoundError("Set up your website first");
  const today = Date.parse(`${isoDay(now.getTime())}T00:00:00Z`);
  const from = isoDay(today - (days - 1) * DAY_MS);
  const [rows, topPaths, topBookPaths, sources, storeRows] = await Promise.all([
    q.selectDaily(db, websiteId, from),
    q.selectTopPaths(db, websiteId, from, 10),
    q.selectTopPaths(db, websiteId, from, 5, "/book/"),
    q.selectTopSources(db, websiteId, from, 10),
    q.selectStoreStats(db, userId, from),
  ]);
  const stores: Stats["stores"] = [];
  for (const r of storeRows) {
    let book = stores.at(-1);
    if (book?.bookId !== r.bookId) {
      book = { bookId: r.bookId, title: r.title, stores: [] };
      stores.push(book);
    }
    book.stores.push({ store: r.store, label: storefrontLabel(r.store), shown: r.shown, clicks: r.clicks });
  }
  const byDay = new Map(rows.map((r) => [r.date, r]));
  const daily = Array.from({ length: days }, (_, i) => {
    const date = isoDay(today - (days - 1 - i) * DAY_MS);
    const r = byDay.get(date);
    return { date, pageViews: r?.pageViews ?? 0, visitors: r?.visitors ?? 0 };
  });
  const paths = [...topPaths, ...topBookPaths].map((p) => p.path);
  const bookIds = paths
    .filter((p) => p.startsWith("/book/"))
    .map((p) => p.slice(6))
    .filter((a) => isUuid(a) || SLUG_PATTERN.test(a));
  const slugs = paths.filter((p) => p.startsWith("/blog/")).map((p) => p.slice(6));
  const titles = await q.selectTitles(db, userId, [...new Set(bookIds)], [...new Set(slugs)]);
  const named = (p: { path: string; views: number }) => ({
    label: labelOf(p.path, titles),
    path: p.path,
    views: p.views,
  });
  return {
    days,
    totals: {
      pageViews: daily.reduce((n, d) => n + d.pageViews, 0),
      visitors: daily.reduce((n, d) => n + d.visitors, 0),
    },
    daily,
    topPages: topPaths.map(named),
    topBooks: topBookPaths.map(named),
    referrers: sources,
    stores,
  };
}

/** Per database (tests run several in one process): today's salt, and the clicks already counted. */
const clickDays = new WeakMap<Db, { day: string; salt: string; counted: Set<string> }>();
/** Enough to absorb a flood in memory; past it the database's unique key still decides. */
const MAX_REMEMBERED = 50_000;

async function clickDay(db: Db, day: string) {
  const known = clickDays.get(db);
  if (known?.day === day) return known;
  const salt = await q.daySalt(db, day, randomBytes(32).toString("base64"));
  // A new day here: clickers before yesterday are no longer needed by any process.
  await q.deleteStoreClickersBefore(db, isoDay(Date.parse(`${day}T00:00:00Z`) - DAY_MS));
  const fresh = { day, salt, counted: new Set<string>() };
  clickDays.set(db, fresh);
  return fresh;
}

/**
 * A reader followed a store link on a book page (the renderer found the book on its site). Counted
 * once per reader, book and UTC day (ADR 049), the reader known the way visits are (ADR 032): a
 * 32-bit slice of a hash of the day's shared salt, the book, the address and the browser; nothing
 * that names the reader is stored. True when this click was counted.
 */
export async function recordStoreClick(
  db: Db,
  bookId: string,
  store: string,
  reader: { address: string | undefined; userAgent: string | undefined },
  now = new Date(),
): Promise<boolean> {
  const day = await clickDay(db, isoDay(now.getTime()));
  const slice = hash(
    "sha256",
    `${day.salt}\u0000click\u0000${bookId}\u0000${reader.address ?? ""}\u0000${reader.userAgent ?? ""}`,
    "buffer",
  ).readInt32BE(0);
  const key = `${bookId}|${slice}`;
  if (day.counted.has(key)) return false;
  const counted = await q.countFirstStoreClick(db, bookId, store, day.day, slice);
  if (day.counted.size >= MAX_REMEMBERED) day.counted.clear();
  day.counted.add(key);
  return counted;
}
