// Caching, validators and visit counting (ADR 007): how a rendered page reaches the reader, from
// the page cache or fresh, with the headers browsers and CDNs read.
import type { Context } from "hono";
import { clientAddress } from "../server/lib/client-address.ts";
import { isBot, referrerSource } from "../server/modules/analytics/visit-counter.ts";
import { type CachedPage, encodedBody, encodedEtag, pickEncoding } from "../server/modules/sites/page-cache.ts";
import type { Out } from "./document.tsx";
import { blogCategory, type SiteRequest, type SiteVars, sitePathOf } from "./site-request.ts";

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

function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

/** Sends a page that is the same for every reader of this URL: validators, CDN headers, a visit. */
export function deliver(c: Context<SiteVars>, req: SiteRequest, page: CachedPage): Response {
  const method = c.req.method;
  const encoding = page.body.length ? pickEncoding(c.req.header("accept-encoding"), page) : null;
  const etag = encodedEtag(page.etag, encoding);
  const headers: Record<string, string> = {
    ETag: etag,
    "Cache-Control": page.status === 503 ? "no-store" : SHARED_CACHE_CONTROL,
    // The only cookie a site reads is the reader's cookie-banner choice.
    Vary: "Cookie, Accept-Encoding",
    "Surrogate-Key": `site-${page.websiteId}`,
  };
  if (encoding) headers["Content-Encoding"] = encoding;
  if (page.status !== 503) headers["CDN-Cache-Control"] = CDN_CACHE_CONTROL;
  const inm = page.status === 200 ? c.req.header("if-none-match") : undefined;
  const notModified = inm !== undefined && etagMatches(inm, etag);
  if (page.countsAsView && page.status === 200 && method === "GET" && req.mode !== "preview") {
    const purpose = c.req.header("sec-purpose") ?? c.req.header("purpose") ?? "";
    const ua = c.req.header("user-agent");
    if (!purpose.includes("prefetch") && !isBot(ua)) {
      const deps = c.get("deps");
      deps.sites.visits.record(page.websiteId, clientAddress(c, deps.env.trustProxy), ua, {
        path: sitePathOf(c, req.basePath),
        source: referrerSource(c.req.header("referer"), c.req.header("host")),
      });
    }
  }
  if (notModified) return new Response(null, { status: 304, headers });
  const body = encoding ? encodedBody(page, encoding) : page.body;
  return new Response(method === "HEAD" ? null : body, {
    status: page.status,
    headers: { ...page.headers, ...headers },
  });
}

export function privateResponse(out: Out): Response {
  return new Response(out.body, { status: out.status, headers: { ...out.headers, "Cache-Control": "no-store" } });
}

export function cacheKey(c: Context<SiteVars>, req: SiteRequest, path: string, consent: boolean, year: number): string {
  const site =
    "subdomain" in req.lookup
      ? `s:${req.lookup.subdomain.toLowerCase()}`
      : `d:${req.lookup.customDomain.toLowerCase()}`;
  // Only the blog reads the query string, and only a known category: anything else is the same
  // page as no query, so junk queries (random categories included) share one entry and one render.
  const query = path === "/blog" ? blogCategory(c) : "";
  return `${req.mode}|${site}|${req.basePath}|${path}|${query}|${consent ? 1 : 0}|${year}`;
}
