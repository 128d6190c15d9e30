// Warming the renderer before the process takes requests (ADR 075). A process that has just
// started has compiled none of the renderer's hot code (nor the embedded database's WebAssembly),
// and its database connections have planned none of the site reads: its first renders cost tens
// of milliseconds each, the very first hundreds. Readers asking a just-started process for sites
// nobody has read lately paid for that, each waiting behind every render queued before theirs.
// Here the process renders real pages of real sites, as a reader's request would, before it
// listens; then it forgets them, so that it starts with nothing kept, as before.
import { request as httpRequest } from "node:http";
import type { Db } from "../db/client.ts";
import { subdomainsToWarm } from "../server/modules/sites/sites.service.ts";
import type { SiteRuntime } from "./runtime.ts";

export type WarmUpOptions = {
  db: Db;
  sites: Pick<SiteRuntime, "cache" | "contexts">;
  /** The domain sites are subdomains of (env SITES_DOMAIN). */
  sitesDomain: string;
  /** Sends a request to the process's own server (loopbackFetch): warming goes the whole way a reader's request does. */
  fetch: (request: Request) => Response | Promise<Response>;
  /** Stop starting renders after this long (start-up must stay quick, ADR 075). */
  budgetMs?: number;
  /** Renders at most. */
  maxRenders?: number;
};

export type WarmUpResult = { renders: number; sites: number; ms: number };

/** Distinct sites read; fewer sites than renders: each is rendered again, afresh. */
const SITES = 24;
/**
 * Renders at once: the database driver's connections each plan the site reads once (PostgreSQL),
 * and renders interleave as readers' do.
 */
const AT_ONCE = 4;
/** Mostly home pages (what a first visit asks), and the other pages every site has. */
const PATHS = ["/", "/", "/books", "/", "/about", "/", "/privacy", "/no-such-page"];

/**
 * Renders up to `maxRenders` pages of up to 24 sites (changed last first) through `fetch`, each
 * one a miss (the page and the site read afresh), for no longer than `budgetMs`; then drops the
 * pages and site contexts it made. Never counts a visit (the requests say they are prefetches)
 * and never fails the start: a page that fails is the next request's to report.
 */
export async function warmUpRenderer(o: WarmUpOptions): Promise<WarmUpResult> {
  const started = performance.now();
  const budgetMs = o.budgetMs ?? 400;
  const maxRenders = o.maxRenders ?? 64;
  const forget = () => {
    o.sites.cache?.clear();
    o.sites.contexts?.clear();
  };
  let renders = 0;
  let subdomains: string[] = [];
  /** The `n`th page warmed: the sites in turn, the paths in turn. */
  const ask = async (n: number) => {
    const host = `${subdomains[n % subdomains.length]}.${o.sitesDomain}`;
    const path = PATHS[n % PATHS.length] ?? "/";
    const request = new Request(`http://${host}${path}`, {
      headers: {
        host,
        "sec-purpose": "prefetch",
        "user-agent": "Bookplate warm-up",
        // Every other one as a browser asks: the compressed form is made on the way out.
        ...(n % 2 === 1 ? { "accept-encoding": "br, gzip" } : {}),
      },
    });
    await (await o.fetch(request)).arrayBuffer();
  };
  try {
    subdomains = await subdomainsToWarm(o.db, SITES);
    while (subdomains.length > 0 && renders < maxRenders && performance.now() - started < budgetMs) {
      const wave: Promise<unknown>[] = [];
      const first = renders;
      for (let i = 0; i < AT_ONCE && renders < maxRenders; i++, renders++) wave.push(ask(renders).catch(ignore));
      await Promise.all(wave);
      // The way a kept page goes out, too: the wave's first page again, now a hit.
      await ask(first).catch(ignore);
      // The next wave renders afresh, even a site this one rendered.
      forget();
    }
  } catch {
    // A database that cannot answer yet: the process starts cold, as it did before warming.
  } finally {
    forget();
  }
  return { renders, sites: Math.min(subdomains.length, renders), ms: Math.round(performance.now() - started) };
}

const ignore = () => undefined;

/** Where the warm-up's own port listens: internal, so never an address others reach. */
export const LOOPBACK = "127.0.0.1";

/**
 * A fetch to this process's own HTTP server on `port` of the loopback address, keeping the Host
 * header (the global fetch replaces it). One connection per request, closed after: nothing is
 * left open when the server stops listening there.
 */
export function loopbackFetch(port: number): (request: Request) => Promise<Response> {
  return (request) =>
    new Promise((resolve, reject) => {
      const url = new URL(request.url);
      const req = httpRequest(
        {
          host: LOOPBACK,
          port,
          path: `${url.pathname}${url.search}`,
          method: request.method,
          headers: { ...Object.fromEntries(request.headers), connection: "close" },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const status = res.statusCode ?? 500;
            const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
            resolve(new Response(body, { status }));
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end();
    });
}
