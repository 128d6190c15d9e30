// Cookie-less visit counting for public sites. A visitor is a hash of (daily salt, address,
// user agent, site); the salt is random, lives only in memory and is replaced at midnight UTC,
// so nothing stored can be traced back to a person. Counts are buffered and written in one
// statement every few seconds, off the request path.
import { hash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { websiteAnalytics } from "../../../db/schema/index.ts";

const BOT =
  /bot|crawl|spider|slurp|fetch|preview|monitor|headless|lighthouse|curl|wget|python|java\/|go-http|axios|node/i;

export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || BOT.test(userAgent);
}

const DAY_MS = 24 * 60 * 60_000;

type Pending = { websiteId: string; day: string; views: number; uniques: number };

export class VisitCounter {
  private day = "";
  /** When `day` ends (ms): the date string is rebuilt once a day, not on every view. */
  private dayEnds = 0;
  private salt = "";
  private seen = new Set<string>();
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly opts: { flushMs?: number; now?: () => Date; onError?: (err: unknown) => void } = {},
  ) {}

  /** Counts one page view. Synchronous and cheap: it never waits on the database. */
  record(websiteId: string, address: string | undefined, userAgent: string | undefined): void {
    if (isBot(userAgent)) return;
    const now = this.opts.now?.().getTime() ?? Date.now();
    if (now >= this.dayEnds || now < this.dayEnds - DAY_MS) {
      const today = new Date(now).toISOString().slice(0, 10);
      this.dayEnds = Date.parse(`${today}T00:00:00Z`) + DAY_MS;
      if (today !== this.day) {
        this.day = today;
        this.salt = randomBytes(32).toString("base64");
        this.seen = new Set();
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
  }

  async flush(): Promise<void> {
    await this.flushing;
    if (this.pending.size === 0) return;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = this.db
      .insert(websiteAnalytics)
      .values(rows.map((r) => ({ websiteId: r.websiteId, date: r.day, pageViews: r.views, uniqueVisitors: r.uniques })))
      .onConflictDoUpdate({
        target: [websiteAnalytics.websiteId, websiteAnalytics.date],
        set: {
          pageViews: sql`${websiteAnalytics.pageViews} + excluded.page_views`,
          uniqueVisitors: sql`${websiteAnalytics.uniqueVisitors} + excluded.unique_visitors`,
        },
      })
      .then(() => undefined)
      .catch((err: unknown) => {
        // A site deleted meanwhile, or the database away: these counts are lost, not retried.
        this.opts.onError?.(err);
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
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
