// What the public-site renderer keeps for the life of the process, as the request context names it.
// The interface lives here, below both server/http and src/sites, so that neither imports the
// other; src/sites/runtime.ts builds it.
import type { Limiter } from "../../lib/rate-limiter.ts";
import type { VisitCounter } from "../analytics/visit-counter.ts";
import type { PageCache } from "./page-cache.ts";
import type { SiteContexts } from "./sites.service.ts";

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
    /** Contact-address verification links per address, whoever asks (ADR 014). */
    contactVerifyMail: Limiter;
    /** The wizard's public subdomain-availability check, per address. */
    availability: Limiter;
  };
  /** Drop the pages and contexts of sites changed lately (runs on a timer; tests call it). */
  sweepNow(): Promise<void>;
  /** Write the buffered visit counts now (tests; shutdown does it too). */
  flushVisits(): Promise<void>;
  close(): Promise<void>;
};
