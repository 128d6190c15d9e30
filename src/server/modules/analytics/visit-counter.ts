// Cookie-less visit counting for public sites. A visitor is a hash of (daily salt, address,
// user agent, site); the salt is random, lives only in memory and is replaced at midnight UTC,
// so nothing stored can be traced back to a person. Counts are buffered and written in one
// statement every few seconds, off the request path. Beside the daily totals it keeps views per
// page path and arrivals per referring site (the Referer's host only, never the full address).
import { hash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { websiteAnalytics, websitePageStats, websiteReferrerStats } from "../../../db/schema/index.ts";

const BOT =
  /bot|crawl|spider|slurp|fetch|preview|monitor|headless|lighthouse|curl|wget|python|java\/|go-http|axios|node/i;

export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || BOT.test(userAgent);
}

const DAY_MS = 24 * 60 * 60_000;

type Pending = { websiteId: string; day: string; views: number; uniques: number };
type Counted = { websiteId: string; day: string; key: string; n: number };

/** Distinct referring sites kept per site and day; the rest are counted as OTHER_SOURCE. */
export const MAX_SOURCES_PER_DAY = 50;
export const OTHER_SOURCE = "(other)";
const MAX_PATH = 300;

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
  private salt = "";
  private seen = new Set<string>();
  private pending = new Map<string, Pending>();
  private pages = new Map<string, Counted>();
  private sources = new Map<string, Counted>();
  /** Per site, today's referring sites so far (bounded by MAX_SOURCES_PER_DAY). */
  private sourcesToday = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly opts: { flushMs?: number; now?: () => Date; onError?: (err: unknown) => void } = {},
  ) {}

  /**
   * Counts one page view. Synchronous and cheap: it never waits on the database.
   * @param page the page's path on the site, and where the reader came from (referrerSource).
   */
  record(
    websiteId: string,
    address: string | undefined,
    userAgent: string | undefined,
    page?: { path: string; source: string | null },
  ): void {
    if (isBot(userAgent)) return;
    const now = this.opts.now?.().getTime() ?? Date.now();
    if (now >= this.dayEnds || now < this.dayEnds - DAY_MS) {
      const today = new Date(now).toISOString().slice(0, 10);
      this.dayEnds = Date.parse(`${today}T00:00:00Z`) + DAY_MS;
      if (today !== this.day) {
        this.day = today;
        this.salt = randomBytes(32).toString("base64");
        this.seen = new Set();
        this.sourcesToday = new Map();
      }
    }
    const today = this.day;
    const visitor = hash(
      "sha256",
      `${this.salt}\u0000${websiteId}\u0000${address ?? ""}\u0000${userAgent ?? ""}`,
      "base64url",
    ).slice(0, 22);
    const key = `${websiteId}|${today}`;
    let p = this.pending.get(key);
    if (!p) {
      p = { websiteId, day: today, views: 0, uniques: 0 };
      this.pending.set(key, p);
    }
    p.views++;
    if (!this.seen.has(visitor)) {
      this.seen.add(visitor);
      p.uniques++;
    }
    if (!page) return;
    bump(this.pages, websiteId, today, page.path.slice(0, MAX_PATH));
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
      bump(this.sources, websiteId, today, source);
    }
  }

  async flush(): Promise<void> {
    await this.flushing;
    if (this.pending.size === 0) return;
    const rows = [...this.pending.values()];
    const pages = [...this.pages.values()];
    const sources = [...this.sources.values()];
    this.pending = new Map();
    this.pages = new Map();
    this.sources = new Map();
    this.flushing = this.write(rows, pages, sources)
      .catch((err: unknown) => {
        // A site deleted meanwhile, or the database away: these counts are lost, not retried.
        this.opts.onError?.(err);
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  private async write(rows: Pending[], pages: Counted[], sources: Counted[]): Promise<void> {
    await this.db
      .insert(websiteAnalytics)
      .values(rows.map((r) => ({ websiteId: r.websiteId, date: r.day, pageViews: r.views, uniqueVisitors: r.uniques })))
      .onConflictDoUpdate({
        target: [websiteAnalytics.websiteId, websiteAnalytics.date],
        set: {
          pageViews: sql`${websiteAnalytics.pageViews} + excluded.page_views`,
          uniqueVisitors: sql`${websiteAnalytics.uniqueVisitors} + excluded.unique_visitors`,
        },
      });
    if (pages.length) {
      await this.db
        .insert(websitePageStats)
        .values(pages.map((r) => ({ websiteId: r.websiteId, date: r.day, path: r.key, views: r.n })))
        .onConflictDoUpdate({
          target: [websitePageStats.websiteId, websitePageStats.date, websitePageStats.path],
          set: { views: sql`${websitePageStats.views} + excluded.views` },
        });
    }
    if (sources.length) {
      await this.db
        .insert(websiteReferrerStats)
        .values(sources.map((r) => ({ websiteId: r.websiteId, date: r.day, source: r.key, visits: r.n })))
        .onConflictDoUpdate({
          target: [websiteReferrerStats.websiteId, websiteReferrerStats.date, websiteReferrerStats.source],
          set: { visits: sql`${websiteReferrerStats.visits} + excluded.visits` },
        });
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

function bump(into: Map<string, Counted>, websiteId: string, day: string, key: string): void {
  const k = `${websiteId}|${day}|${key}`;
  const row = into.get(k);
  if (row) row.n++;
  else into.set(k, { websiteId, day, key, n: 1 });
}
