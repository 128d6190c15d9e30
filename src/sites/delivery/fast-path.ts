// The fast path for cached public pages (ADR 033). A GET or HEAD for a tenant host whose page is
// in the page cache is answered straight from Node's request: no Request object, no middleware
// chain, no routing — a host check, a cache lookup and pre-built headers and bytes. Anything else
// (a miss, the app host, another method, a path the app answers on every host, an address it
// would rather read itself) goes to the app unchanged, which renders and fills the cache. The
// answer is the renderer's own (delivery.ts builds both), counted and logged the same way.
import { type IncomingMessage, type ServerResponse, validateHeaderName, validateHeaderValue } from "node:http";
import { addressByRule } from "../../server/lib/client-address.ts";
import { classifyHost, type HostConfig } from "../../server/lib/host.ts";
import type { CountryGroup } from "../../shared/storefronts.ts";
import type { SiteRequest } from "../handler.tsx";
import type { SiteRuntime } from "../runtime.ts";
import {
  answerFor,
  cachedFor,
  countView,
  differsByCountry,
  hasConsentChoice,
  pageKeyAfter,
  pageKeyPrefix,
  readerGroup,
} from "./delivery.ts";

/** One answered request, for the access log and the request metrics (the app's own recorder). */
export type Answered = {
  method: string;
  hostKind: string;
  host: string | undefined;
  path: string;
  status: number;
  start: number;
};

export type FastPathOptions = {
  sites: Pick<SiteRuntime, "cache" | "visits">;
  hosts: HostConfig;
  trustProxy: boolean;
  /** The trusted country header (lower case), or null: Accept-Language (ADR 036). */
  countryHeader: string | null;
  record: (r: Answered, requestId: string | undefined) => void;
};

/**
 * Paths the app answers on every host before it looks at the host (app.ts: probes, the TLS
 * question, uploads, fonts): a site's cached page must never stand in for them.
 */
const ANSWERED_ON_EVERY_HOST = /^\/(?:healthz|readyz|internal\/|uploads\/|_fonts\/)/;
/**
 * A path the app would read exactly as sent: no percent-encoding to decode, no dot segments or
 * doubled slashes to normalise. Book ids, post slugs and page names all are.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/;

/** An incoming X-Request-Id is kept when it is one (the rule of Hono's requestId middleware). */
const REQUEST_ID = /^[\w\-=]{1,255}$/;

/**
 * A tenant host as the fast path needs it: its kind and its pages' key prefix (the site it names),
 * and per reader group the last page key made for it, with what it was made from. A host is mostly
 * asked for the same page again: the same key string is looked up again, where a key built anew is
 * a new string the page cache's Map must flatten and hash on every request.
 */
type TenantHost = {
  kind: "subdomain" | "custom";
  prefix: string;
  /** For readers of no group (every page but a book's): kept in the host itself, no map to look in. */
  plain: LastKey | undefined;
  /** For each reader group of a book page. */
  groups: Map<CountryGroup, LastKey> | undefined;
};
type LastKey = { path: string; consent: boolean; year: number; key: string };

/**
 * Host headers already classified, up to this many (then forgotten all at once and learnt
 * again): a hit reads its host here instead of classifying and building its key prefix anew.
 */
const KNOWN_HOSTS = 10_000;

function tenantHost(host: string | undefined, hosts: HostConfig): TenantHost | null {
  const c = classifyHost(host, hosts);
  if (c.kind !== "subdomain" && c.kind !== "custom") return null;
  const site: SiteRequest = {
    lookup: c.kind === "subdomain" ? { subdomain: c.subdomain } : { customDomain: c.domain },
    basePath: "",
    mode: "tenant",
  };
  return { kind: c.kind, prefix: pageKeyPrefix(site), plain: undefined, groups: undefined };
}

/** A page's key for this host: the last one made when it is the same page, else a new one (kept). */
function keyOf(host: TenantHost, path: string, consent: boolean, year: number, group: CountryGroup): string {
  const last = group === "" ? host.plain : host.groups?.get(group);
  if (last && last.path === path && last.consent === consent && last.year === year) return last.key;
  const key = pageKeyAfter(host.prefix, path, "", consent, year, group);
  const made = { path, consent, year, key };
  if (group === "") host.plain = made;
  else {
    host.groups ??= new Map();
    host.groups.set(group, made);
  }
  return key;
}

/** The year a page's key names (a page may show it), and the span of time it holds for. */
let year = 0;
let yearFrom = 0;
let yearUntil = 0;
function currentYear(): number {
  const now = Date.now();
  if (now >= yearUntil || now < yearFrom) {
    year = new Date(now).getUTCFullYear();
    yearFrom = Date.UTC(year, 0, 1);
    yearUntil = Date.UTC(year + 1, 0, 1);
  }
  return year;
}

/**
 * A cached answer's headers as the flat list Node's writeHead also takes (name, value, name,
 * value…), made once per header set (delivery.ts keeps one per page and encoding): Node walks a
 * list by index where it would enumerate an object's keys on every request. Same bytes on the wire.
 */
const flatHeaders = new WeakMap<Record<string, string>, string[]>();
function flat(headers: Record<string, string>): string[] {
  let list = flatHeaders.get(headers);
  if (!list) {
    list = Object.entries(headers).flat();
    flatHeaders.set(headers, list);
  }
  return list;
}

/**
 * Node's own field for a response's headers, `{ lower-case name: [name, value] }`, which `setHeader`
 * fills after checking each name and value; `writeHead` with no headers of its own writes that
 * field's headers without checking them again. Found on the first response (an own symbol named
 * `kOutHeaders`, null until a header is set); null when this Node has no such field.
 */
let outHeadersKey: symbol | null | undefined;
function outHeadersField(res: ServerResponse): symbol | null {
  if (outHeadersKey === undefined) {
    const key = Object.getOwnPropertySymbols(res).find((s) => s.description === "kOutHeaders");
    outHeadersKey = key && (res as unknown as Record<symbol, unknown>)[key] === null ? key : null;
  }
  return outHeadersKey;
}

/**
 * A cached answer's headers in that field's shape, made once per header set and checked once, with
 * Node's own checks, when made (the same checks `writeHead` runs on every request, ~10 % of a hit's
 * instructions in Node's HTTP, ADR 087). Frozen: shared by every answer of the page, so a change
 * after the answer is written would throw instead of reaching the next reader.
 */
const checkedHeaders = new WeakMap<Record<string, string>, Readonly<Record<string, readonly [string, string]>>>();
function checked(headers: Record<string, string>): Readonly<Record<string, readonly [string, string]>> {
  let field = checkedHeaders.get(headers);
  if (!field) {
    // A plain object (not a null-prototype one, which V8 keeps as a dictionary): Node enumerates
    // it with for-in on every answer, which a fast object does from its cached keys.
    const entries: Record<string, readonly [string, string]> = {};
    for (const [name, value] of Object.entries(headers)) {
      validateHeaderName(name);
      validateHeaderValue(name, value);
      entries[name.toLowerCase()] = Object.freeze([name, value] as const);
    }
    field = Object.freeze(entries);
    checkedHeaders.set(headers, field);
  }
  return field;
}

/** The status line and headers of a cached answer: the same bytes either way (fast-path.test.ts). */
function writeHead(res: ServerResponse, status: number, headers: Record<string, string>): void {
  const key = outHeadersField(res);
  // null: no header set on this response yet (nothing but this code writes a cached answer).
  if (key && (res as unknown as Record<symbol, unknown>)[key] === null) {
    (res as unknown as Record<symbol, unknown>)[key] = checked(headers);
    res.writeHead(status);
  } else res.writeHead(status, flat(headers));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

/**
 * Returns a listener step: true when it answered the request from the page cache, false when the
 * app must answer it.
 */
export function cachedPageAnswerer(opts: FastPathOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { cache, visits } = opts.sites;
  if (!cache) return () => false;
  const known = new Map<string | undefined, TenantHost | null>();
  return (req, res) => {
    const method = req.method ?? "";
    if (method !== "GET" && method !== "HEAD") return false;
    const url = req.url ?? "";
    const q = url.indexOf("?");
    let path = q < 0 ? url : url.slice(0, q);
    if (!PLAIN_PATH.test(path) || ANSWERED_ON_EVERY_HOST.test(path)) return false;
    if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
    // The blog's category is a query the app validates; every other page ignores the query.
    if (q >= 0 && path === "/blog") return false;
    // A NUL in the query is refused by the app (ADR 049), even where the page would ignore it.
    if (q >= 0 && url.includes("%00", q)) return false;
    const hostHeader = req.headers.host;
    let host = known.get(hostHeader);
    if (host === undefined) {
      if (known.size >= KNOWN_HOSTS) known.clear();
      host = tenantHost(hostHeader, opts.hosts);
      known.set(hostHeader, host);
    }
    if (host === null) return false;
    const start = performance.now();
    // Only book pages differ by country: other pages read no more headers than before.
    const group = differsByCountry(path) ? readerGroup(opts.countryHeader, (name) => header(req, name)) : "";
    const consent = hasConsentChoice(req.headers.cookie);
    const year = currentYear();
    const page =
      group === ""
        ? cache.get(keyOf(host, path, consent, year, ""))
        : cachedFor(cache, (g) => keyOf(host, path, consent, year, g), group);
    if (!page) return false;
    const out = answerFor(page, {
      method,
      acceptEncoding: header(req, "accept-encoding"),
      ifNoneMatch: header(req, "if-none-match"),
    });
    countView(visits, page, {
      method,
      mode: "tenant",
      purpose: header(req, "sec-purpose") ?? header(req, "purpose"),
      userAgent: header(req, "user-agent"),
      address: () => addressByRule(header(req, "x-forwarded-for"), () => req.socket.remoteAddress, opts.trustProxy),
      path,
      referer: header(req, "referer"),
      host: req.headers.host,
    });
    writeHead(res, out.status, out.headers);
    res.end(out.body);
    opts.record(
      { method, hostKind: host.kind, host: req.headers.host, path, status: out.status, start },
      REQUEST_ID.test(header(req, "x-request-id") ?? "") ? header(req, "x-request-id") : undefined,
    );
    return true;
  };
}
