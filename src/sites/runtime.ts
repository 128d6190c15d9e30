// What the public-site renderer keeps for the life of the process: the rendered-page cache and
// the site contexts (and what keeps them fresh), the visit counter and the form rate limits. See ADR 007.
import type { Database } from "../db/client.ts";
import type { Logger } from "../server/lib/logger.ts";
import { dbRateLimiter, type Limiter } from "../server/lib/rate-limiter.ts";
import { VisitCounter } from "../server/modules/analytics/visit-counter.ts";
import { SiteContextCache } from "../server/modules/sites/context-cache.ts";
import { onLocalSiteChange, SITE_CHANGED_CHANNEL } from "../server/modules/sites/site-changes.service.ts";
import { type SiteContexts, sitesChangedSince } from "../server/modules/sites/sites.service.ts";
import { PageCache } from "./delivery/page-cache.ts";

/**
 * What the renderer keeps for the life of the process, as its request context (SiteDeps) names
 * it. It lives with the renderer: server/http names none of it (the app assembly hands it to the
 * renderer and the fast path).
 */
export type SiteRuntime = {
  /** null when PAGE_CACHE=false: every page is rendered from the database. */
  cache: PageCache | null;
  /**
   * The site contexts of sites read lately (ADR 040), kept fresh like the pages; also when
   * PAGE_CACHE=false. null when SITE_CONTEXT_CACHE=false: every miss reads its site.
   */
  contexts: SiteContexts | null;
  visits: VisitCounter;
  limits: {
    /** Contact messages per client address and per sender address, per site (anti-spam on). */
    contact: Limiter;
    /** Newsletter sign-ups per client address, per site. */
    signUp: Limiter;
    /** Confirmation mails per subscriber address, per site. */
    confirmMail: Limiter;
    /** Asks for a new free-book link per client address, per site (ADR 068). */
    magnetRenew: Limiter;
    /** New free-book links mailed per reader, per site (ADR 068). */
    magnetRenewMail: Limiter;
  };
  /** Drop the pages and contexts of sites changed lately (runs on a timer; tests call it). */
  sweepNow(): Promise<void>;
  /** Write the buffered visit counts now (tests; shutdown does it too). */
  flushVisits(): Promise<void>;
  close(): Promise<void>;
};

const HOUR = 60 * 60_000;

export type SiteRuntimeOptions = {
  database: Database;
  logger: Logger;
  /** The page cache's budget, or false for none (every page rendered). */
  pageCache: { maxBytes: number } | false;
  /** The site contexts' budget, or false for none (every miss reads its site). */
  siteContexts: { maxChars: number } | false;
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
  const cache = opts.pageCache ? new PageCache(opts.pageCache.maxBytes) : null;
  const contexts: SiteContexts | null = opts.siteContexts ? new SiteContextCache(opts.siteContexts.maxChars) : null;
  const dropSite = (userId: string) => {
    cache?.dropSite(userId);
    contexts?.dropSite(userId);
  };
  const stops: (() => Promise<void> | void)[] = [];
  // 1. This process's own changes, at once (deterministic for tests and for the author).
  stops.push(onLocalSiteChange(dropSite));
  // 2. Every process's changes, on commit.
  //    Notices sent while the LISTEN link was down are lost: drop everything when it is back.
  stops.push(
    await database.listen(SITE_CHANGED_CHANNEL, dropSite, {
      onReconnect: () => {
        logger.warn("site change notices resumed after a lost database link: kept pages and site contexts dropped");
        cache?.clear();
        contexts?.clear();
      },
    }),
  );
  // 3. A sweep for changes whose notice was lost, and for subscription and domain changes
  //    written by code that does not know about sites. The overlap covers clock skew and
  //    transactions that committed after the previous sweep looked.
  let since = Date.now();
  let sweeping: Promise<void> | undefined;
  const sweep = () => {
    sweeping ??= (async () => {
      const started = Date.now();
      try {
        for (const userId of await sitesChangedSince(database.db, new Date(since - 60_000))) dropSite(userId);
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
  return {
    cache,
    contexts,
    visits,
    limits: {
      contact: dbRateLimiter(database.db, "contact", 5, HOUR),
      signUp: dbRateLimiter(database.db, "newsletter-sign-up", 10, HOUR),
      confirmMail: dbRateLimiter(database.db, "newsletter-confirm-mail", 3, HOUR),
      magnetRenew: dbRateLimiter(database.db, "magnet-renew", 5, HOUR),
      magnetRenewMail: dbRateLimiter(database.db, "magnet-renew-mail", 3, 24 * HOUR),
    },
    sweepNow: () => sweep(),
    flushVisits: () => visits.flush(),
    async close() {
      for (const stop of stops.reverse()) await stop();
      await visits.stop();
    },
  };
}
