// What the public-site renderer keeps for the life of the process: the rendered-page cache
// (and what keeps it fresh), the visit counter and the form rate limits. See ADR 007.
import type { Database } from "../db/client.ts";
import type { Logger } from "../server/lib/logger.ts";
import { VisitCounter } from "../server/modules/analytics/visit-counter.ts";
import { onLocalSiteChange, SITE_CHANGED_CHANNEL } from "../server/modules/sites/site-changes.service.ts";
import { sitesChangedSince } from "../server/modules/sites/sites.service.ts";
import { PageCache } from "./page-cache.ts";
import { RateLimiter } from "./rate-limit.ts";

const HOUR = 60 * 60_000;

export type SiteRuntime = {
  /** null when PAGE_CACHE=false: every page is rendered from the database. */
  cache: PageCache | null;
  visits: VisitCounter;
  limits: {
    /** Contact messages per client address and per sender address, per site (anti-spam on). */
    contact: RateLimiter;
    /** Newsletter sign-ups per client address, per site. */
    signUp: RateLimiter;
    /** Confirmation mails per subscriber address, per site. */
    confirmMail: RateLimiter;
  };
  /** Drop the pages of sites changed lately (runs on a timer; tests call it). */
  sweepNow(): Promise<void>;
  /** Write the buffered visit counts now (tests; shutdown does it too). */
  flushVisits(): Promise<void>;
  close(): Promise<void>;
};

export type SiteRuntimeOptions = {
  database: Database;
  logger: Logger;
  pageCache: boolean;
  visitFlushMs?: number;
  /** How often to look for sites changed without a notice reaching us (a dropped LISTEN link). */
  sweepMs?: number;
};

export async function startSiteRuntime(opts: SiteRuntimeOptions): Promise<SiteRuntime> {
  const { database, logger } = opts;
  const visits = new VisitCounter(database.db, {
    flushMs: opts.visitFlushMs ?? 10_000,
    onError: (err) => logger.warn({ err }, "visit counts not written"),
  });
  visits.start();
  const cache = opts.pageCache ? new PageCache() : null;
  const stops: (() => Promise<void> | void)[] = [];
  let sweep = async () => {};
  if (cache) {
    // 1. This process's own changes, at once (deterministic for tests and for the author).
    stops.push(onLocalSiteChange((userId) => cache.dropSite(userId)));
    // 2. Every process's changes, on commit.
    stops.push(await database.listen(SITE_CHANGED_CHANNEL, (userId) => cache.dropSite(userId)));
    // 3. A sweep for changes whose notice was lost, and for subscription and domain changes
    //    written by code that does not know about sites. The overlap covers clock skew and
    //    transactions that committed after the previous sweep looked.
    let since = Date.now();
    let sweeping: Promise<void> | undefined;
    sweep = () => {
      sweeping ??= (async () => {
        const started = Date.now();
        try {
          for (const userId of await sitesChangedSince(database.db, new Date(since - 60_000))) cache.dropSite(userId);
          since = started;
        } catch (err) {
          logger.warn({ err }, "page cache sweep failed");
        } finally {
          sweeping = undefined;
        }
      })();
      return sweeping;
    };
    const timer = setInterval(() => void sweep(), opts.sweepMs ?? 15_000);
    timer.unref();
    stops.push(() => clearInterval(timer));
  }
  return {
    cache,
    visits,
    limits: {
      contact: new RateLimiter(5, HOUR),
      signUp: new RateLimiter(10, HOUR),
      confirmMail: new RateLimiter(3, HOUR),
    },
    sweepNow: () => sweep(),
    flushVisits: () => visits.flush(),
    async close() {
      for (const stop of stops.reverse()) await stop();
      await visits.stop();
    },
  };
}
