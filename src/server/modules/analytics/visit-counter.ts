// Cookie-less visit counting for public sites (ADR 007, 032). Counts are buffered and written
// every few seconds, off the request path. A visitor is counted once a day across every app
// process: at each write, the readers seen since the last one become a 32-bit slice of a hash of
// (the day's shared random salt, site, address, browser), inserted into `website_visitors`; a
// slice that is new for the site and day is a new visitor. So many addresses share each slice that
// none can be traced back, and slices and salts are deleted after a day. Beside the daily totals
// it keeps views per page path and arrivals per referring site (the Referer's host, never the
// full address), and per book which store its buy box showed first (ADR 036).
import { hash, randomBytes } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
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
import { addCounts, type Column, column, inChunks, insertRows, ROWS_PER_STATEMENT } from "./batch-rows.ts";
import { addReader, countPage, newPending, type Pending, tally } from "./pending.ts";
import { isBot, MAX_SOURCES_PER_DAY, OTHER_SOURCE } from "./visit-source.ts";

// Who a view is from, for the renderer and the tests, through the counter the module shows.
export { isBot, MAX_SOURCES_PER_DAY, OTHER_SOURCE, referrerSource } from "./visit-source.ts";

const DAY_MS = 24 * 60 * 60_000;

const MAX_PATH = 300;

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
  /** The browser seen last and whether it is a bot: most views come in runs of the same one. */
  private lastAgent: string | undefined;
  private lastAgentIsBot = true;
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
    page?: { path: string; source: string | null; store?: { bookId: string; store: string } | undefined },
  ): void {
    if (userAgent !== this.lastAgent || userAgent === undefined) {
      this.lastAgent = userAgent;
      this.lastAgentIsBot = isBot(userAgent);
    }
    if (this.lastAgentIsBot) return;
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
      p = newPending(websiteId, this.day);
      this.pending.set(websiteId, p);
    }
    p.views++;
    // Kept as it came until the next write (seconds), which sends each reader once a day.
    addReader(p, address ?? "", userAgent ?? "");
    if (!page) return;
    countPage(p, page.path.length > MAX_PATH ? page.path.slice(0, MAX_PATH) : page.path);
    if (page.store) {
      const key = `${page.store.bookId}\u0000${page.store.store}`;
      tally(p.stores, key);
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
      tally(p.sources, source);
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
    const sites: string[] = [];
    const days: string[] = [];
    const visitors: number[] = [];
    for (const [i, p] of rows.entries()) {
      const list = readers[i] ?? [];
      if (list.length === 0) continue;
      const salt = await this.saltOf(p.day);
      const own = new Set<number>();
      for (const reader of list) {
        own.add(hash("sha256", `${salt}\u0000${p.websiteId}\u0000${reader}`, "buffer").readInt32BE(0));
      }
      for (const visitor of own) {
        sites.push(p.websiteId);
        days.push(p.day);
        visitors.push(visitor);
      }
    }
    const added = new Map<string, number>();
    const columns = [
      column(websiteVisitors.websiteId, "uuid", sites),
      column(websiteVisitors.date, "date", days),
      column(websiteVisitors.visitor, "integer", visitors),
    ];
    await this.chunks(visitors.length, async (from, to) => {
      const res = await this.db.execute(
        sql`${insertRows(websiteVisitors, columns, from, to)} on conflict do nothing returning "website_id", "date"::text as "date"`,
      );
      for (const r of (res as unknown as { rows: { website_id: string; date: string }[] }).rows) {
        const k = `${r.website_id}\u0000${r.date}`;
        added.set(k, (added.get(k) ?? 0) + 1);
      }
    });
    return rows.map((p) => added.get(`${p.websiteId}\u0000${p.day}`) ?? 0);
  }

  /** Rows [from, to) of `count`, a bounded number at a time (`inChunks`). */
  private chunks(count: number, write: (from: number, to: number) => Promise<void>): Promise<void> {
    return inChunks(count, this.opts.rowsPerStatement ?? ROWS_PER_STATEMENT, write);
  }

  private addCounts(table: PgTable, columns: Column[], key: PgColumn[], counts: PgColumn[]): Promise<void> {
    return addCounts(this.db, table, columns, key, counts, this.opts.rowsPerStatement ?? ROWS_PER_STATEMENT);
  }

  private async write(rows: Pending[], readers: string[][]): Promise<void> {
    const uniques = await this.newVisitors(rows, readers);
    const t = {
      sites: [] as string[],
      days: [] as string[],
      views: [] as number[],
      uniques: [] as number[],
    };
    const pages = { sites: [] as string[], days: [] as string[], paths: [] as string[], views: [] as number[] };
    const sources = { sites: [] as string[], days: [] as string[], sources: [] as string[], visits: [] as number[] };
    const stores = { books: [] as string[], days: [] as string[], stores: [] as string[], shown: [] as number[] };
    for (const [i, r] of rows.entries()) {
      t.sites.push(r.websiteId);
      t.days.push(r.day);
      t.views.push(r.views);
      t.uniques.push(uniques[i] ?? 0);
      for (const [path, views] of r.pages) {
        pages.sites.push(r.websiteId);
        pages.days.push(r.day);
        pages.paths.push(path);
        pages.views.push(views.n);
      }
      for (const [source, visits] of r.sources) {
        sources.sites.push(r.websiteId);
        sources.days.push(r.day);
        sources.sources.push(source);
        sources.visits.push(visits.n);
      }
      for (const [key, shown] of r.stores) {
        const [bookId = "", store = ""] = key.split("\u0000");
        stores.books.push(bookId);
        stores.days.push(r.day);
        stores.stores.push(store);
        stores.shown.push(shown.n);
      }
    }
    const a = websiteAnalytics;
    await this.addCounts(
      a,
      [
        column(a.websiteId, "uuid", t.sites),
        column(a.date, "date", t.days),
        column(a.pageViews, "integer", t.views),
        column(a.uniqueVisitors, "integer", t.uniques),
      ],
      [a.websiteId, a.date],
      [a.pageViews, a.uniqueVisitors],
    );
    const ps = websitePageStats;
    await this.addCounts(
      ps,
      [
        column(ps.websiteId, "uuid", pages.sites),
        column(ps.date, "date", pages.days),
        column(ps.path, "text", pages.paths),
        column(ps.views, "integer", pages.views),
      ],
      [ps.websiteId, ps.date, ps.path],
      [ps.views],
    );
    const rs = websiteReferrerStats;
    await this.addCounts(
      rs,
      [
        column(rs.websiteId, "uuid", sources.sites),
        column(rs.date, "date", sources.days),
        column(rs.source, "text", sources.sources),
        column(rs.visits, "integer", sources.visits),
      ],
      [rs.websiteId, rs.date, rs.source],
      [rs.visits],
    );
    if (stores.books.length) {
      // A book deleted since its views were counted takes its counts with it (not the whole write).
      const live = new Set<string>();
      const ids = [...new Set(stores.books)];
      await this.chunks(ids.length, async (from, to) => {
        const res = await this.db.execute(
          sql`select "id" from ${books} where "id" = any(${sql.param(ids.slice(from, to))}::uuid[])`,
        );
        for (const b of (res as unknown as { rows: { id: string }[] }).rows) live.add(b.id);
      });
      const kept = stores.books.flatMap((id, i) => (live.has(id) ? [i] : []));
      const bs = bookStoreStats;
      await this.addCounts(
        bs,
        [
          column(
            bs.bookId,
            "uuid",
            kept.map((i) => stores.books[i] as string),
          ),
          column(
            bs.date,
            "date",
            kept.map((i) => stores.days[i] as string),
          ),
          column(
            bs.store,
            "text",
            kept.map((i) => stores.stores[i] as string),
          ),
          column(
            bs.shown,
            "integer",
            kept.map((i) => stores.shown[i] as number),
          ),
        ],
        [bs.bookId, bs.date, bs.store],
        [bs.shown],
      );
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
