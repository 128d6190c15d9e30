// Cookie-less visit counting for public sites (ADR 007, 032). Counts are buffered and written
// every few seconds, off the request path. A visitor is counted once a day across every app
// process: at each write, the readers seen since the last one become a 32-bit slice of a hash of
// (the day's shared random salt, site, address, browser), inserted into `website_visitors`; a
// slice that is new for the site and day is a new visitor. So many addresses share each slice that
// none can be traced back, and slices and salts are deleted after a day. Beside the daily totals
// it keeps views per page path and arrivals per referring site (the Referer's host, never the
// full address), and per book which store its buy box showed first (ADR 036).
import { hash, randomBytes } from "node:crypto";
import { inArray, lt, sql } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/client.ts";
import {
  bookStoreStats,
  books,
  visitSalts,
  websiteAnalytics,
  websitePageStats,
  websiteReferrerStats,
  websiteVisitors,
} from "../../../db/schema/index.ts";

const BOT =
  /bot|crawl|spider|slurp|fetch|preview|monitor|headless|lighthouse|curl|wget|python|java\/|go-http|axios|node/i;

export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || BOT.test(userAgent);
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * A site's day since the last write: views, the readers seen since (browsers by address), and
 * views per page path and per referring site. Keyed by the strings the request brings, so that a
 * view adds to maps without building a key.
 */
type Pending = {
  websiteId: string;
  day: string;
  views: number;
  readers: Map<string, Set<string>>;
  pages: Map<string, number>;
  sources: Map<string, number>;
  /** Per book and store (`bookId\u0000store`): views whose buy box showed that store first. */
  stores: Map<string, number>;
};

/** Distinct referring sites kept per site and day; the rest are counted as OTHER_SOURCE. */
export const MAX_SOURCES_PER_DAY = 50;
export const OTHER_SOURCE = "(other)";
const MAX_PATH = 300;
/** Rows per insert: at most 4 columns each, so well under PostgreSQL's 65,535 parameters. */
const ROWS_PER_STATEMENT = 500;

/**
 * Where a view came from: the referring site's host (lower case, without `www.`), "" for none
 * (typed, bookmarked, an app that sends no Referer), or null when it is the site's own page (a
 * reader moving around the site is not a new arrival).
 */
export function referrerSource(referer: string | undefined, ownHost: string | undefined): string | null {
  if (!referer) return "";
  let host: string;
  try {
    const u = new URL(referer);
    if (u.protocol !== "http:" && u.protocol !== "https:") return "";
    host = u.host.toLowerCase();
  } catch {
    return "";
  }
  if (ownHost && host === ownHost.toLowerCase()) return null;
  return host.replace(/^www\./, "").replace(/:\d+$/, "");
}

export class VisitCounter {
  private day = "";
  /** When `day` ends (ms): the date string is rebuilt once a day, not on every view. */
  private dayEnds = 0;
  /** This process's own key for `seen` (never stored): which readers it already sent today. */
  private localSalt = "";
  private seen = new Set<string>();
  /** The shared salt of each day written so far (from `visit_salts`). */
  private salts = new Map<string, string>();
  /** Per site, today's counts since the last write. */
  private pending = new Map<string, Pending>();
  /** Counts of a day that ended before they were written. */
  private ended: Pending[] = [];
  /** Per site, today's referring sites so far (bounded by MAX_SOURCES_PER_DAY). */
  private sourcesToday = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly opts: {
      flushMs?: number;
      now?: () => Date;
      onError?: (err: unknown) => void;
      /** Rows per insert (tests make it small to see several). */
      rowsPerStatement?: number;
    } = {},
  ) {}

  /**
   * Counts one page view. Synchronous and cheap: it never waits on the database.
   * @param page the page's path on the site, and where the reader came from (referrerSource).
   */
  record(
    websiteId: string,
    address: string | undefined,
    userAgent: string | undefined,
    page?: { path: string; source: string | null; store?: { bookId: string; store: string } },
  ): void {
    if (isBot(userAgent)) return;
    const now = this.opts.now?.().getTime() ?? Date.now();
    if (now >= this.dayEnds || now < this.dayEnds - DAY_MS) {
      const today = new Date(now).toISOString().slice(0, 10);
      this.dayEnds = Date.parse(`${today}T00:00:00Z`) + DAY_MS;
      if (today !== this.day) {
        this.ended.push(...this.pending.values());
        this.pending = new Map();
        this.day = today;
        this.localSalt = randomBytes(32).toString("base64");
        this.seen = new Set();
        this.sourcesToday = new Map();
      }
    }
    let p = this.pending.get(websiteId);
    if (!p) {
      p = {
        websiteId,
        day: this.day,
        views: 0,
        readers: new Map(),
        pages: new Map(),
        sources: new Map(),
        stores: new Map(),
      };
      this.pending.set(websiteId, p);
    }
    p.views++;
    // Kept as it came until the next write (seconds), which sends each reader once a day.
    const from = address ?? "";
    let browsers = p.readers.get(from);
    if (!browsers) {
      browsers = new Set();
      p.readers.set(from, browsers);
    }
    browsers.add(userAgent ?? "");
    if (!page) return;
    const path = page.path.length > MAX_PATH ? page.path.slice(0, MAX_PATH) : page.path;
    p.pages.set(path, (p.pages.get(path) ?? 0) + 1);
    if (page.store) {
      const key = `${page.store.bookId}\u0000${page.store.store}`;
      p.stores.set(key, (p.stores.get(key) ?? 0) + 1);
    }
    if (page.source !== null) {
      let known = this.sourcesToday.get(websiteId);
      if (!known) {
        known = new Set();
        this.sourcesToday.set(websiteId, known);
      }
      let source = page.source;
      if (!known.has(source)) {
        if (known.size >= MAX_SOURCES_PER_DAY) source = OTHER_SOURCE;
        else known.add(source);
      }
      p.sources.set(source, (p.sources.get(source) ?? 0) + 1);
    }
  }

  async flush(): Promise<void> {
    await this.flushing;
    if (this.pending.size === 0 && this.ended.length === 0) return;
    const rows = [...this.ended, ...this.pending.values()];
    this.ended = [];
    this.pending = new Map();
    // Each reader is sent once a day per process (whether another process sent it first, the
    // database decides): hashed here, off the request path, and only readers not sent yet go.
    // A day that just ended sends all of its readers; the database dedupes them.
    const sending = rows.map((p) => {
      const readers: string[] = [];
      for (const [address, browsers] of p.readers) {
        for (const browser of browsers) {
          const reader = `${address}\u0000${browser}`;
          if (p.day === this.day) {
            const mine = hash("sha256", `${this.localSalt}\u0000${p.websiteId}\u0000${reader}`, "base64url").slice(
              0,
              22,
            );
            if (this.seen.has(mine)) continue;
            this.seen.add(mine);
          }
          readers.push(reader);
        }
      }
      return readers;
    });
    this.flushing = this.write(rows, sending)
      .catch((err: unknown) => {
        // A site deleted meanwhile, or the database away: these counts are lost, not retried.
        this.opts.onError?.(err);
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  /** The day's salt, the same for every process: the first to ask makes it. */
  private async saltOf(day: string): Promise<string> {
    const known = this.salts.get(day);
    if (known) return known;
    await this.db
      .insert(visitSalts)
      .values({ date: day, salt: randomBytes(32).toString("base64") })
      .onConflictDoNothing();
    const [row] = await this.db.select().from(visitSalts).where(sql`${visitSalts.date} = ${day}`);
    if (!row) throw new Error(`no visit salt for ${day}`);
    // A new day: yesterday's is kept (late writes), older salts and visitor slices go.
    const before = new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
    await this.db.delete(visitSalts).where(lt(visitSalts.date, before));
    await this.db.delete(websiteVisitors).where(lt(websiteVisitors.date, before));
    this.salts = new Map([...this.salts].filter(([d]) => d >= before));
    this.salts.set(day, row.salt);
    return row.salt;
  }

  /**
   * Per row, how many of its readers the site had not seen that day, in any process. The slices
   * of every site go in shared statements (a row per slice), not a statement per site.
   */
  private async newVisitors(rows: Pending[], readers: string[][]): Promise<number[]> {
    const slices: { websiteId: string; date: string; visitor: number }[] = [];
    for (const [i, p] of rows.entries()) {
      const list = readers[i] ?? [];
      if (list.length === 0) continue;
      const salt = await this.saltOf(p.day);
      const own = new Set<number>();
      for (const reader of list) {
        own.add(hash("sha256", `${salt}\u0000${p.websiteId}\u0000${reader}`, "buffer").readInt32BE(0));
      }
      for (const visitor of own) slices.push({ websiteId: p.websiteId, date: p.day, visitor });
    }
    const added = new Map<string, number>();
    await this.inChunks(slices, async (chunk) => {
      const inserted = await this.db
        .insert(websiteVisitors)
        .values(chunk)
        .onConflictDoNothing()
        .returning({ websiteId: websiteVisitors.websiteId, date: websiteVisitors.date });
      for (const r of inserted) {
        const k = `${r.websiteId}\u0000${r.date}`;
        added.set(k, (added.get(k) ?? 0) + 1);
      }
    });
    return rows.map((p) => added.get(`${p.websiteId}\u0000${p.day}`) ?? 0);
  }

  /**
   * Runs `write` on `rows` a bounded number at a time: a statement's parameters are limited
   * (65,535 in PostgreSQL's protocol; the page rows of 10,000 sites take 40,000), and on the
   * embedded database a statement runs on the event loop. Between two statements, requests are
   * answered.
   */
  /**
   * Adds the rows' `counts` to the stored rows with the same `key` (a day's figures), a chunk at a
   * time; a key not stored yet starts from the row's counts.
   */
  private async addCounts<T extends PgTable>(
    table: T,
    rows: T["$inferInsert"][],
    key: PgColumn[],
    counts: Partial<Record<keyof T["$inferInsert"], PgColumn>>,
  ): Promise<void> {
    const set = Object.fromEntries(
      Object.entries<PgColumn>(counts as Record<string, PgColumn>).map(([field, column]) => [
        field,
        sql`${column} + excluded.${sql.identifier(column.name)}`,
      ]),
    ) as PgUpdateSetSource<T>;
    await this.inChunks(rows, async (chunk) => {
      await this.db.insert(table).values(chunk).onConflictDoUpdate({ target: key, set });
    });
  }

  private async inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<void>): Promise<void> {
    const size = this.opts.rowsPerStatement ?? ROWS_PER_STATEMENT;
    for (let i = 0; i < rows.length; i += size) {
      if (i > 0) await new Promise<void>((ok) => setImmediate(ok));
      await write(rows.slice(i, i + size));
    }
  }

  private async write(rows: Pending[], readers: string[][]): Promise<void> {
    const uniques = await this.newVisitors(rows, readers);
    const pages = rows.flatMap((r) =>
      [...r.pages].map(([path, views]) => ({ websiteId: r.websiteId, date: r.day, path, views })),
    );
    const sources = rows.flatMap((r) =>
      [...r.sources].map(([source, visits]) => ({ websiteId: r.websiteId, date: r.day, source, visits })),
    );
    const stores = rows.flatMap((r) =>
      [...r.stores].map(([key, shown]) => {
        const [bookId = "", store = ""] = key.split("\u0000");
        return { bookId, date: r.day, store, shown };
      }),
    );
    const totals = rows.map((r, i) => ({
      websiteId: r.websiteId,
      date: r.day,
      pageViews: r.views,
      uniqueVisitors: uniques[i] ?? 0,
    }));
    await this.addCounts(websiteAnalytics, totals, [websiteAnalytics.websiteId, websiteAnalytics.date], {
      pageViews: websiteAnalytics.pageViews,
      uniqueVisitors: websiteAnalytics.uniqueVisitors,
    });
    const pageKey = [websitePageStats.websiteId, websitePageStats.date, websitePageStats.path];
    await this.addCounts(websitePageStats, pages, pageKey, { views: websitePageStats.views });
    const sourceKey = [websiteReferrerStats.websiteId, websiteReferrerStats.date, websiteReferrerStats.source];
    await this.addCounts(websiteReferrerStats, sources, sourceKey, { visits: websiteReferrerStats.visits });
    if (stores.length) {
      // A book deleted since its views were counted takes its counts with it (not the whole write).
      const live = new Set<string>();
      await this.inChunks([...new Set(stores.map((x) => x.bookId))], async (ids) => {
        for (const b of await this.db.select({ id: books.id }).from(books).where(inArray(books.id, ids)))
          live.add(b.id);
      });
      const kept = stores.filter((x) => live.has(x.bookId));
      const storeKey = [bookStoreStats.bookId, bookStoreStats.date, bookStoreStats.store];
      await this.addCounts(bookStoreStats, kept, storeKey, { shown: bookStoreStats.shown });
    }
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.opts.flushMs ?? 10_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
