// Caching, validators and visit counting (ADR 007, 033): how a rendered page reaches the reader,
// from the page cache or fresh, with the headers browsers and CDNs read. Everything here works on
// plain values read from the request, so that the fast path beside it (fast-path.ts)
// answers a cached page with exactly the bytes and headers the renderer would.
import type { Context } from "hono";
import { clientAddress } from "../../server/lib/client-address.ts";
import { referrerSource, type VisitCounter } from "../../server/modules/analytics/visit-counter.ts";
import { siteLookupKey } from "../../server/modules/sites/sites.service.ts";
import { type CountryGroup, groupOfCountry, groupOfLanguages } from "../../shared/storefronts.ts";
import type { Out } from "../document.tsx";
import type { SiteMode } from "../pages/layout.tsx";
import { blogCategory, type SiteRequest, type SiteVars, sitePathOf } from "../site-request.ts";
import {
  type CachedPage,
  type Encoding,
  encodedBody,
  encodedEtag,
  type PageCache,
  pickEncoding,
} from "./page-cache.ts";

/** Statuses kept in the page cache. 404s are not: any path can be asked for, and they are cheap. */
export const CACHED_STATUSES = new Set([200, 301, 503]);

/**
 * Browsers revalidate every time (max-age=0: an author's change and a reader's cookie choice show
 * at once, a 304 costs a few bytes); a CDN may keep a page for a minute and serve it stale while
 * it refetches. CDN-Cache-Control (RFC 9213) carries the CDN's part so that browsers never serve
 * a stale page; s-maxage is the fallback for shared caches that do not read it.
 */
const SHARED_CACHE_CONTROL = "public, max-age=0, s-maxage=60";
const CDN_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=300";
/** A page that expires (a countdown) is never served stale: at most a minute past midnight. */
const CDN_CACHE_CONTROL_EXPIRING = "public, max-age=60";

/** What a shared page's answer depends on, read from the request. */
export type PageAsk = {
  method: string;
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
};

/** What a page view is counted from, read from the request (only when the page counts as a view). */
export type ViewAsk = {
  method: string;
  mode: SiteMode;
  /** Sec-Purpose or Purpose: prefetches are not views. */
  purpose: string | undefined;
  userAgent: string | undefined;
  address: () => string | undefined;
  path: string;
  referer: string | undefined;
  host: string | undefined;
};

export type Delivery = {
  status: number;
  /** Every response header but the ones Node adds (Date, Connection, Keep-Alive). */
  headers: Record<string, string>;
  /** null for a 304 and for HEAD. */
  body: Uint8Array<ArrayBuffer> | string | null;
};

function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

/** The caching headers of a page in one encoding: the same for every request, so kept with it. */
function cachingHeaders(page: CachedPage, encoding: Encoding | null): Record<string, string> {
  const key = encoding ?? "identity";
  page.caching ??= {};
  let headers = page.caching[key];
  if (!headers) {
    headers = {
      ETag: encodedEtag(page.etag, encoding),
      "Cache-Control": page.status === 503 ? "no-store" : SHARED_CACHE_CONTROL,
      // The only cookie a site reads is the reader's cookie-banner choice; a book page's buy box
      // also reads the reader's country (ADR 036).
      Vary: page.vary ? `Cookie, Accept-Encoding, ${page.vary}` : "Cookie, Accept-Encoding",
      "Surrogate-Key": `site-${page.websiteId}`,
    };
    if (encoding) headers["Content-Encoding"] = encoding;
    if (page.status !== 503) {
      headers["CDN-Cache-Control"] = page.expiresAt ? CDN_CACHE_CONTROL_EXPIRING : CDN_CACHE_CONTROL;
    }
    page.caching[key] = headers;
  }
  return headers;
}

/** The answer to one request for a page that is the same for every reader of its URL. */
export function answerFor(page: CachedPage, ask: PageAsk): Delivery {
  const encoding = page.body.length ? pickEncoding(ask.acceptEncoding, page) : null;
  const caching = cachingHeaders(page, encoding);
  if (page.status === 200 && ask.ifNoneMatch !== undefined && etagMatches(ask.ifNoneMatch, caching.ETag ?? "")) {
    return { status: 304, headers: caching, body: null };
  }
  const bytes = encoding ? encodedBody(page, encoding) : page.body;
  page.full ??= {};
  const key = encoding ?? "identity";
  let headers = page.full[key];
  if (!headers) {
    headers = {
      ...page.headers,
      ...caching,
      // Stated, so that a HEAD tells the length too and Node never falls back to chunks.
      "Content-Length": String(typeof bytes === "string" ? Buffer.byteLength(bytes) : bytes.byteLength),
    };
    page.full[key] = headers;
  }
  return { status: page.status, headers, body: ask.method === "HEAD" ? null : bytes };
}

/** Counts the view if this answer is one (a reader's GET of an HTML page, not a prefetch; bots are left out by the counter). */
export function countView(visits: VisitCounter, page: CachedPage, ask: ViewAsk): void {
  if (!page.countsAsView || page.status !== 200 || ask.method !== "GET" || ask.mode === "preview") return;
  if (ask.purpose?.includes("prefetch")) return; // bots: the counter leaves them out
  visits.record(page.websiteId, ask.address(), ask.userAgent, {
    path: ask.path,
    source: referrerSource(ask.referer, ask.host),
    store: page.store,
  });
}

/** Sends a page that is the same for every reader of this URL: validators, CDN headers, a visit. */
export function deliver(c: Context<SiteVars>, req: SiteRequest, page: CachedPage): Response {
  const method = c.req.method;
  const deps = c.get("deps");
  const out = answerFor(page, {
    method,
    acceptEncoding: c.req.header("accept-encoding"),
    ifNoneMatch: c.req.header("if-none-match"),
  });
  countView(deps.sites.visits, page, {
    method,
    mode: req.mode,
    purpose: c.req.header("sec-purpose") ?? c.req.header("purpose"),
    userAgent: c.req.header("user-agent"),
    address: () => clientAddress(c, deps.env.trustProxy),
    path: sitePathOf(c, req.basePath),
    referer: c.req.header("referer"),
    host: c.req.header("host"),
  });
  return new Response(out.body, { status: out.status, headers: out.headers });
}

export const PRIVATE_NO_STORE = "private, no-store";

export function privateResponse(out: Out): Response {
  // "private, no-store" (a reader's download) is as strict; anything else a page said becomes "no-store".
  const cache = out.headers["Cache-Control"] === PRIVATE_NO_STORE ? PRIVATE_NO_STORE : "no-store";
  return new Response(out.body, { status: out.status, headers: { ...out.headers, "Cache-Control": cache } });
}

/** Whether the reader has answered the cookie banner (the one cookie a site reads). */
export function hasConsentChoice(cookie: string | undefined): boolean {
  return cookie !== undefined && /(?:^|;\s*)cookie_consent=(accepted|declined)/.test(cookie);
}

/** Only a book page differs by the reader's country (its buy box, ADR 036). */
export const differsByCountry = (path: string) => path.startsWith("/book/");

/**
 * The reader's country group: from the trusted country header when one is configured (the proxy
 * or CDN sets it on every request), else from Accept-Language. `header` reads a request header by
 * its lower-case name; both the app and the fast path pass their own.
 */
export function readerGroup(countryHeader: string | null, header: (name: string) => string | undefined): CountryGroup {
  return countryHeader ? groupOfCountry(header(countryHeader)?.trim()) : groupOfLanguages(header("accept-language"));
}

/**
 * The cached page for a reader of `group`: their group's own copy, else the one copy of a page
 * that turned out the same for every group (no Vary: a book with one store). A page is stored
 * under its group only when it varies (`keyToStore`), so most book pages are kept once.
 */
export function cachedFor(
  cache: Pick<PageCache, "get">,
  key: (group: CountryGroup) => string,
  group: CountryGroup,
): CachedPage | undefined {
  if (group !== "") {
    const own = cache.get(key(group));
    if (own) return own;
  }
  const shared = cache.get(key(""));
  return shared && (group === "" || !shared.vary) ? shared : undefined;
}

/** Where a freshly rendered page goes in the cache (see cachedFor). */
export const keyToStore = (page: CachedPage, key: (group: CountryGroup) => string, group: CountryGroup) =>
  page.vary ? key(group) : key("");

/** What a CDN must key a book page by: the header the group was read from. */
export const countryVary = (countryHeader: string | null) => countryHeader ?? "Accept-Language";

/** The cache key of a shared page: everything its bytes depend on, and nothing else. */
export function pageKey(
  req: SiteRequest,
  path: string,
  query: string,
  consent: boolean,
  year: number,
  group: CountryGroup,
): string {
  return pageKeyAfter(pageKeyPrefix(req), path, query, consent, year, group);
}

/** The part of a page's key that names its site (the fast path keeps it per host). */
export const pageKeyPrefix = (req: SiteRequest) => `${req.mode}|${siteLookupKey(req.lookup)}|${req.basePath}|`;

/** A page's key from its site's prefix (pageKeyPrefix): the same string pageKey makes. */
export const pageKeyAfter = (
  prefix: string,
  path: string,
  query: string,
  consent: boolean,
  year: number,
  group: CountryGroup,
) => `${prefix}${path}|${query}|${consent ? 1 : 0}|${year}|${group}`;

export function cacheKey(
  c: Context<SiteVars>,
  req: SiteRequest,
  path: string,
  consent: boolean,
  year: number,
  group: CountryGroup,
): string {
  // Only the blog reads the query string, and only a known category: anything else is the same
  // page as no query, so junk queries (random categories included) share one entry and one render.
  return pageKey(req, path, path === "/blog" ? blogCategory(c) : "", consent, year, group);
}
