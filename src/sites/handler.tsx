// Public author sites: the way in. app.ts decides which site a request is for and calls
// handleSiteRequest; here the cache is asked, the site loaded and the answers that hold for every
// path given (redirects, expired, coming soon); then the request goes to its kind of page in the
// table (routes.ts, ADR 057), a POST by way of forms.tsx, and out through delivery/.
import type { Context } from "hono";
import type { Db } from "../db/client.ts";
import { loadSiteContext, type SiteContext, type SiteContexts } from "../server/modules/sites/sites.service.ts";
import { DEMO_SUBDOMAIN } from "../shared/reserved-subdomains.ts";
import type { CountryGroup } from "../shared/storefronts.ts";
import { type Answer, notFoundPage, plain } from "./answer.tsx";
import {
  CACHED_STATUSES,
  cachedFor,
  cacheKey,
  deliver,
  differsByCountry,
  hasConsentChoice,
  keyToStore,
  privateResponse,
  readerGroup,
} from "./delivery/delivery.ts";
import { type CachedPage, etagOf, type PageCache, utf8Bytes } from "./delivery/page-cache.ts";
import { HTML, type Out, renderHtml } from "./document.tsx";
import { answerForm } from "./forms.tsx";
import { type PageEnv, siteName } from "./pages/layout.tsx";
import { MessagePage } from "./pages/message-page.tsx";
import { renderAuthorNotFound, renderComingSoon, renderWebsiteNotFound } from "./render.tsx";
import { pageFor } from "./routes.ts";
import { protocolOf, type SiteRequest, type SiteVars, siteOrigin, sitePathOf } from "./site-request.ts";

export { serveFont } from "./fonts.ts";
export type { SiteLookup, SiteRequest } from "./site-request.ts";

/**
 * Answers any request for a public author site. A page that is the same for every reader is
 * served from the per-site cache when there (no database at all), else rendered with at most two
 * database round trips (the site context, unless read lately, then one page query) and kept.
 */
export async function handleSiteRequest<E extends SiteVars>(
  appContext: Context<E>,
  req: SiteRequest,
): Promise<Response> {
  // The renderer only reads the context, never sets it: the app's richer context serves as is.
  const c = appContext as unknown as Context<SiteVars>;
  const deps = c.get("deps");
  const cache = deps.sites.cache;
  const method = c.req.method;
  const path = sitePathOf(c, req.basePath);
  const consent = hasConsentChoice(c.req.header("cookie"));
  const year = new Date().getUTCFullYear();
  const group = differsByCountry(path) ? readerGroup(deps.env.countryHeader, (name) => c.req.header(name)) : "";
  // Previews are the owner's view of their own site: never shared, never cached.
  const shared = (method === "GET" || method === "HEAD") && req.mode !== "preview";
  const keyOf = (g: CountryGroup) => cacheKey(c, req, path, consent, year, g);
  if (!shared || !cache) return answer(c, req, { path, consent, year, group }, keyOf, null);
  const hit = cachedFor(cache, keyOf, group);
  if (hit) return deliver(c, req, hit);
  // Readers asking for a page being rendered wait for that render (a launch-day spike, a
  // crawler's burst on a cold site): one render, every waiter gets its page. A render whose
  // answer is not shared (personal, not found) gives them nothing: they render their own.
  const flights = flightsOf(cache);
  const key = keyOf(group);
  const pending = flights.get(key);
  if (pending) {
    const page = await pending;
    if (page) return deliver(c, req, page);
    return answer(c, req, { path, consent, year, group }, keyOf, null);
  }
  let done: (page: CachedPage | null) => void = () => {};
  flights.set(key, new Promise((ok) => (done = ok)));
  let page: CachedPage | null = null;
  try {
    return await answer(c, req, { path, consent, year, group }, keyOf, (p) => {
      page = p;
    });
  } finally {
    flights.delete(key);
    done(page);
  }
}

/** Renders in flight, per page cache, by the request's cache key. */
const inFlight = new WeakMap<PageCache, Map<string, Promise<CachedPage | null>>>();
function flightsOf(cache: PageCache): Map<string, Promise<CachedPage | null>> {
  let flights = inFlight.get(cache);
  if (!flights) {
    flights = new Map();
    inFlight.set(cache, flights);
  }
  return flights;
}

/**
 * The site's answer to a request the cache had no page for: rendered, kept when shared and
 * cacheable, and handed to `shared` (the readers waiting for this render) when it is a page
 * that is the same for every reader of the address.
 */
async function answer(
  c: Context<SiteVars>,
  req: SiteRequest,
  r: { path: string; consent: boolean; year: number; group: CountryGroup },
  keyOf: (g: CountryGroup) => string,
  shared: ((page: CachedPage) => void) | null,
): Promise<Response> {
  const deps = c.get("deps");
  const cache = deps.sites.cache;
  const method = c.req.method;
  const isShared = (method === "GET" || method === "HEAD") && req.mode !== "preview";
  // The owner's preview reads the site afresh: it must show a save the moment it returns, even
  // from a process whose notice of it is still on the way.
  const contexts = req.mode === "preview" ? null : deps.sites.contexts;
  const ctx = await loadSiteContext(deps.database.db, req.lookup, contexts);
  if (!ctx) {
    // www.janeauthor.com and janeauthor.com both reach us; the one the author chose is the site.
    const other =
      "customDomain" in req.lookup ? await otherFormOf(deps.database.db, contexts, req.lookup.customDomain) : null;
    if (other && (method === "GET" || method === "HEAD")) {
      const url = new URL(c.req.url);
      return c.body(null, 301, {
        Location: `${protocolOf(deps.env.appOrigin)}//${other}${url.pathname}${url.search}`,
        "Cache-Control": "public, max-age=3600",
      });
    }
    // A subdomain names an author; a domain pointing at us names a site someone has yet to set up.
    const page = "subdomain" in req.lookup ? renderAuthorNotFound() : renderWebsiteNotFound();
    return c.html(page, 404, { "Cache-Control": "no-store" });
  }
  const out = await renderSite(c, req, ctx, r);
  if (!isShared || out.personal) return privateResponse(out);
  const body = typeof out.body === "string" || out.body === null ? utf8Bytes(out.body ?? "") : out.body;
  const page: CachedPage = {
    status: out.status,
    body,
    etag: etagOf(body),
    headers: out.headers,
    websiteId: ctx.website.id,
    countsAsView: out.view === true,
    ...(out.expiresAt ? { expiresAt: out.expiresAt } : {}),
    ...(out.vary ? { vary: out.vary } : {}),
    ...(out.store ? { store: out.store } : {}),
  };
  if (cache && CACHED_STATUSES.has(page.status)) {
    cache.set(ctx.website.userId, keyToStore(page, keyOf, r.group), page);
    shared?.(page);
  }
  return deliver(c, req, page);
}

/** The verified custom domain that `host` is the www. or bare form of, if any. */
async function otherFormOf(db: Db, contexts: SiteContexts | null, host: string): Promise<string | null> {
  const other = host.startsWith("www.") ? host.slice(4) : `www.${host}`;
  if (!other.includes(".")) return null;
  const ctx = await loadSiteContext(db, { customDomain: other }, contexts);
  return ctx?.website.customDomain ?? null;
}

/** The answer for one request to a site that exists. */
async function renderSite(
  c: Context<SiteVars>,
  req: SiteRequest,
  ctx: SiteContext,
  r: { path: string; consent: boolean; year: number; group: CountryGroup },
): Promise<Out> {
  const deps = c.get("deps");
  const { path } = r;
  const method = c.req.method;
  const w = ctx.website;
  const env: PageEnv = {
    ctx,
    origin: siteOrigin(c, ctx),
    base: req.basePath,
    mode: req.mode,
    readOnly: req.mode === "demo" || w.subdomain === DEMO_SUBDOMAIN,
    path,
    showCookieBanner: !r.consent,
    now: new Date(),
    uploadsBase: deps.env.uploadsPublicUrl,
    year: r.year,
  };
  const name = siteName(ctx);

  // A verified custom domain is the site's one address: the subdomain sends readers and
  // crawlers there for good. Only the page path travels (the site reads no other query).
  if (
    req.mode === "tenant" &&
    "subdomain" in req.lookup &&
    w.customDomain &&
    ctx.customDomainVerified &&
    (method === "GET" || method === "HEAD")
  ) {
    const query = new URL(c.req.url).search;
    return { ...plain(301, null, { Location: `${env.origin}${path}${query}` }), personal: query !== "" };
  }

  if (ctx.subscriptionStatus === "expired") {
    return {
      ...renderHtml(
        env,
        {
          status: 503,
          head: { title: `${name} is temporarily unavailable` },
          body: (
            <MessagePage
              title="Temporarily unavailable"
              text="This website is temporarily unavailable. Please check back soon."
            />
          ),
        },
        path,
      ),
      view: false,
    };
  }

  // Until checkout completes, readers see that the site is coming, not the author's content
  // (the owner's preview on the app host shows it as it will be).
  if (!ctx.published && req.mode === "tenant") {
    return plain(503, renderComingSoon(name), { "Content-Type": HTML, "Retry-After": "86400" });
  }

  const a: Answer = {
    c,
    req,
    ctx,
    env,
    deps,
    db: deps.database.db,
    path,
    name,
    group: r.group,
    html: (page) => renderHtml(env, page, path),
  };
  if (method === "POST") return answerForm(a);
  if (method !== "GET" && method !== "HEAD")
    return plain(405, "Method not allowed", { "Content-Type": "text/plain; charset=UTF-8", Allow: "GET, HEAD, POST" });
  const found = pageFor("get", path, env);
  return found?.kind.get ? found.kind.get(a, found.params) : notFoundPage(env);
}
