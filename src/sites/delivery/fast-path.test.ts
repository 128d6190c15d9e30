// The fast path (ADR 033): which requests it answers from the page cache, and that its answer is
// the renderer's own — bytes, headers, validators and the counted view.
import { createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  books,
  profiles,
  retailerLinks,
  subscriptions,
  user,
  websitePageStats,
  websites,
} from "../../db/schema/index.ts";
import { VisitCounter } from "../../server/modules/analytics/visit-counter.ts";
import type { CountryGroup } from "../../shared/storefronts.ts";
import { s, startFileServer } from "../../testing/file-server.ts";
import { answerFor, pageKey } from "./delivery.ts";
import { type Answered, cachedPageAnswerer } from "./fast-path.ts";
import { type CachedPage, etagOf, PageCache } from "./page-cache.ts";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131 Safari/537.36";
startFileServer();
let siteId: string;
let bookId: string;

type Res = { status: number; headers: IncomingHttpHeaders; rawHeaders: string[]; body: string };
function send(port: number, host: string, path: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<Res>((ok, fail) => {
    const req = request({ host: "127.0.0.1", port, path, method, headers: { host, ...headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () => ok({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, body }));
    });
    req.on("error", fail);
    req.end();
  });
}

beforeAll(async () => {
  const id = crypto.randomUUID();
  const db = s.database.db;
  await db.insert(user).values({ id, name: "Fast", email: "fast@example.com", emailVerified: true });
  await db.insert(profiles).values({ id, name: "Fast Author", email: "fast@example.com" });
  const [site] = await db
    .insert(websites)
    .values({ userId: id, subdomain: "fast", websiteName: "Fast Site" })
    .returning({ id: websites.id });
  await db.insert(subscriptions).values({ userId: id, tier: "mini", status: "active" });
  siteId = site?.id ?? "";
  const [book] = await db
    .insert(books)
    .values({ userId: id, title: "Fast Book", slug: "fast-book", author: "Fast Author" })
    .returning({ id: books.id });
  bookId = book?.id ?? "";
  await db.insert(retailerLinks).values([
    {
      bookId,
      retailerName: "Amazon.com",
      retailerUrl: "https://www.amazon.com/dp/B000000001",
      storefront: "amazon-us",
      sortOrder: -1,
    },
    {
      bookId,
      retailerName: "Amazon.co.uk",
      retailerUrl: "https://www.amazon.co.uk/dp/B000000001",
      storefront: "amazon-uk",
    },
    { bookId, retailerName: "Kobo", retailerUrl: "https://www.kobo.com/gb/en/ebook/fast", storefront: "kobo" },
  ]);
});

describe("the fast path in front of the app", () => {
  // The answerer alone, in front of a stand-in "app" that says it was reached.
  let server: Server;
  let port = 0;
  let cache: PageCache;
  let visits: VisitCounter;
  let answered: Answered[] = [];
  const hosts = { appHost: "app.test", sitesDomain: "sites.test" };
  const page = (body: string, status = 200): CachedPage => {
    const bytes = Buffer.from(body);
    return {
      status,
      body: bytes,
      etag: etagOf(bytes),
      headers: { "Content-Type": "text/html; charset=UTF-8" },
      websiteId: siteId,
      countsAsView: true,
    };
  };
  const put = (
    host: { subdomain: string } | { customDomain: string },
    path: string,
    p: CachedPage,
    consent = false,
    group: CountryGroup = "",
  ) =>
    cache.set(
      "owner",
      pageKey({ lookup: host, basePath: "", mode: "tenant" }, path, "", consent, new Date().getUTCFullYear(), group),
      p,
    );

  beforeAll(async () => {
    server = createServer((req, res) => {
      // A request marked x-test-trusted meets an answerer that trusts CF-IPCountry; others one that trusts none.
      const trusted = req.headers["x-test-trusted"] === "1";
      const answer = cachedPageAnswerer({
        sites: { cache, visits },
        hosts,
        trustProxy: false,
        countryHeader: trusted ? "cf-ipcountry" : null,
        record: (r) => answered.push(r),
      });
      if (!answer(req, res)) res.writeHead(599).end("app");
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((ok) => server.close(ok));
  });
  beforeEach(() => {
    cache = new PageCache();
    visits = new VisitCounter(s.database.db);
    answered = [];
  });

  it("answers a cached page of a subdomain or a custom domain, and nothing else", async () => {
    put({ subdomain: "jane" }, "/about", page("<p>about Jane</p>"));
    put({ customDomain: "janeauthor.com" }, "/", page("<p>home of Jane</p>"));
    const about = await send(port, "jane.sites.test", "/about");
    expect(about).toMatchObject({ status: 200, body: "<p>about Jane</p>" });
    expect(about.headers["content-type"]).toBe("text/html; charset=UTF-8");
    expect(about.headers["content-length"]).toBe("17");
    expect(about.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(about.headers.vary).toBe("Cookie, Accept-Encoding");
    expect(about.headers["cdn-cache-control"]).toBe("public, max-age=60, stale-while-revalidate=300");
    expect((await send(port, "JANEAUTHOR.com", "/")).body).toBe("<p>home of Jane</p>");
    // A trailing slash and an ignored query are the same page; the app's answers stay the app's.
    expect((await send(port, "jane.sites.test", "/about/?utm_source=x")).status).toBe(200);
    expect((await send(port, "jane.sites.test", "/books")).body).toBe("app");
    expect((await send(port, "app.test", "/about")).body).toBe("app");
    expect((await send(port, "bad_host", "/about")).body).toBe("app");
    expect((await send(port, "jane.sites.test", "/about", {}, "POST")).body).toBe("app");
    expect(answered.map((a) => [a.hostKind, a.status, a.path])).toEqual([
      ["subdomain", 200, "/about"],
      ["custom", 200, "/"],
      ["subdomain", 200, "/about"],
    ]);
  });

  it("answers every ask of a host it has seen as the first, with the headers in the renderer's order", async () => {
    const jane = page("<p>Jane</p>");
    put({ subdomain: "jane" }, "/", jane);
    // One answerer for every request, as the server has: it remembers the hosts it has seen.
    const answer = cachedPageAnswerer({
      sites: { cache, visits },
      hosts,
      trustProxy: false,
      countryHeader: null,
      record: (r) => answered.push(r),
    });
    const own = createServer((req, res) => {
      if (!answer(req, res)) res.writeHead(599).end("app");
    });
    await new Promise<void>((ok) => own.listen(0, "127.0.0.1", ok));
    const ownPort = (own.address() as AddressInfo).port;
    try {
      for (let round = 0; round < 3; round++) {
        expect((await send(ownPort, "jane.sites.test", "/")).body).toBe("<p>Jane</p>");
        expect((await send(ownPort, "JANE.sites.test.", "/")).body).toBe("<p>Jane</p>");
        expect((await send(ownPort, "jane.sites.test", "/about")).body).toBe("app");
        expect((await send(ownPort, "app.test", "/")).body).toBe("app");
        expect((await send(ownPort, "bad_host", "/")).body).toBe("app");
        expect((await send(ownPort, "nobody.sites.test", "/")).body).toBe("app");
      }
      const sent = await send(ownPort, "jane.sites.test", "/");
      const names = sent.rawHeaders.filter((_, i) => i % 2 === 0);
      const expected = Object.keys(
        answerFor(jane, { method: "GET", acceptEncoding: undefined, ifNoneMatch: undefined }).headers,
      );
      expect(names.filter((n) => !["Date", "Connection", "Keep-Alive"].includes(n))).toEqual(expected);
      expect(answered.filter((a) => a.status === 200)).toHaveLength(7);
    } finally {
      await new Promise((ok) => own.close(ok));
    }
  });

  it("leaves to the app what it answers on every host and addresses it would read differently", async () => {
    // A site that is coming soon caches its 503 for any path, these included.
    for (const path of ["/healthz", "/readyz", "/internal/tls/ask", "/uploads/a/b.webp", "/_fonts/x.woff2", "/blog"]) {
      put({ subdomain: "jane" }, path, page("coming soon", 503));
    }
    for (const path of ["/healthz", "/readyz", "/internal/tls/ask?domain=x", "/uploads/a/b.webp", "/_fonts/x.woff2"]) {
      expect((await send(port, "jane.sites.test", path)).body, path).toBe("app");
    }
    // The blog's category is the app's to read; encoded and dot-segment paths are the app's to normalise.
    expect((await send(port, "jane.sites.test", "/blog?category=news")).body).toBe("app");
    expect((await send(port, "jane.sites.test", "/blog")).status).toBe(503);
    put({ subdomain: "jane" }, "/about", page("about"));
    for (const path of ["/x/../about", "/./about", "//about", "/ab%6fut", "http://jane.sites.test/about"]) {
      expect((await send(port, "jane.sites.test", path)).body, path).toBe("app");
    }
  });

  it("keys by the reader's cookie choice, and answers HEAD and conditional requests", async () => {
    put({ subdomain: "jane" }, "/", page("with the banner"));
    put({ subdomain: "jane" }, "/", page("without the banner"), true);
    expect((await send(port, "jane.sites.test", "/")).body).toBe("with the banner");
    const chosen = await send(port, "jane.sites.test", "/", { cookie: "a=1; cookie_consent=declined" });
    expect(chosen.body).toBe("without the banner");
    const head = await send(port, "jane.sites.test", "/", {}, "HEAD");
    expect(head).toMatchObject({ status: 200, body: "" });
    expect(head.headers["content-length"]).toBe("15");
    const etag = String(head.headers.etag);
    const again = await send(port, "jane.sites.test", "/", { "if-none-match": `W/${etag}` });
    expect(again).toMatchObject({ status: 304, body: "" });
    expect(again.headers.etag).toBe(etag);
  });

  it("keys book pages, and only book pages, by the reader's country group", async () => {
    const book = "/book/00000000-0000-4000-8000-000000000001";
    const varies = (body: string): CachedPage => ({ ...page(body), vary: "Accept-Language" });
    put({ subdomain: "jane" }, book, varies("first: amazon.com"));
    put({ subdomain: "jane" }, book, varies("first: amazon.co.uk"), false, "uk");
    put({ subdomain: "jane" }, book, varies("first: amazon.de"), false, "de");
    put({ subdomain: "jane" }, "/about", page("about"));
    const on = (headers: Record<string, string>, path = book) => send(port, "jane.sites.test", path, headers);
    expect((await on({})).body).toBe("first: amazon.com");
    expect((await on({ "accept-language": "en-GB,en;q=0.9" })).body).toBe("first: amazon.co.uk");
    expect((await on({ "accept-language": "de-AT" })).body).toBe("first: amazon.de");
    expect((await on({ "accept-language": "de" })).body).toBe("first: amazon.de");
    expect((await on({ "accept-language": "en-US" })).body).toBe("app"); // group "us": not cached yet
    expect((await on({ "accept-language": "pt-BR" })).body).toBe("first: amazon.com");
    // Untrusted, a country header is nobody's word; trusted, it decides and languages do not.
    expect((await on({ "cf-ipcountry": "GB" })).body).toBe("first: amazon.com");
    expect((await on({ "x-test-trusted": "1", "cf-ipcountry": "GB", "accept-language": "de" })).body).toBe(
      "first: amazon.co.uk",
    );
    expect((await on({ "x-test-trusted": "1", "cf-ipcountry": "IE" })).body).toBe("first: amazon.co.uk");
    expect((await on({ "x-test-trusted": "1", "accept-language": "de" })).body).toBe("first: amazon.com");
    // Other pages ignore both.
    expect((await on({ "accept-language": "de" }, "/about")).body).toBe("about");
    expect((await on({ "x-test-trusted": "1", "cf-ipcountry": "DE" }, "/about")).body).toBe("about");
    // A book page the same for every group (one store) is kept once and serves them all.
    const single = "/book/00000000-0000-4000-8000-000000000002";
    put({ subdomain: "jane" }, single, page("one store"));
    for (const lang of ["en-GB", "de", "en-US", ""])
      expect((await on({ "accept-language": lang }, single)).body).toBe("one store");
  });

  it("counts a reader's views per page, not bots' or prefetches", async () => {
    put({ subdomain: "jane" }, "/about", page("about"));
    await send(port, "jane.sites.test", "/about", { "user-agent": BROWSER, referer: "https://news.example/x" });
    await send(port, "jane.sites.test", "/about/", { "user-agent": BROWSER });
    await send(port, "jane.sites.test", "/about", { "user-agent": "Googlebot/2.1" });
    await send(port, "jane.sites.test", "/about", { "user-agent": BROWSER, "sec-purpose": "prefetch" });
    await send(port, "jane.sites.test", "/about", { "user-agent": BROWSER }, "HEAD");
    await visits.flush();
    const [row] = await s.database.db.select().from(websitePageStats).where(eq(websitePageStats.websiteId, siteId));
    expect(row).toMatchObject({ path: "/about", views: 2 });
  });
});

describe("the fast path in the running server", () => {
  it("answers a page the app rendered with the same status, headers and bytes", async () => {
    const ask = { "user-agent": BROWSER, "accept-encoding": "gzip" };
    const rendered = await s.onHost("fast.localhost", "/", ask);
    expect(rendered.status).toBe(200);
    const cached = await s.onHost("fast.localhost", "/", ask);
    const { date: _a, ...first } = rendered.headers;
    const { date: _b, ...second } = cached.headers;
    expect(second).toEqual(first);
    expect(cached.body).toBe(rendered.body);
    expect(first["content-encoding"]).toBe("gzip");
  });

  it("answers a book page per country group like the app, with one cache entry per group", async () => {
    const path = "/book/fast-book";
    const ask = (lang: string) => ({ "user-agent": BROWSER, "accept-encoding": "br", "accept-language": lang });
    const before = s.sites.cache?.size ?? 0;
    const rendered = await s.onHost("fast.localhost", path, ask("en-GB,en;q=0.9"));
    expect(rendered.status).toBe(200);
    expect(s.sites.cache?.size).toBe(before + 1);
    const cached = await s.onHost("fast.localhost", path, ask("en-GB,en;q=0.9"));
    const { date: _a, ...first } = rendered.headers;
    const { date: _b, ...second } = cached.headers;
    expect(second).toEqual(first);
    expect(cached.body).toBe(rendered.body);
    expect(first.vary).toBe("Cookie, Accept-Encoding, Accept-Language");
    // Other headers of the same group share the entry; another group gets its own.
    await s.onHost("fast.localhost", path, ask("en-IE"));
    await s.onHost("fast.localhost", path, ask("en-GB"));
    expect(s.sites.cache?.size).toBe(before + 1);
    await s.onHost("fast.localhost", path, ask("en-US"));
    await s.onHost("fast.localhost", path, ask("en-US,en;q=0.5"));
    expect(s.sites.cache?.size).toBe(before + 2);
    const plain = (lang: string) =>
      s.onHost("fast.localhost", path, { "user-agent": BROWSER, "accept-language": lang });
    expect((await plain("en-GB")).body).toContain("Buy From Amazon.co.uk</a>");
    expect((await plain("en-US")).body).toContain("Buy From Amazon.com</a>");
  });

  it("shows in the metrics: requests by host kind, and what the page cache holds", async () => {
    await s.onHost("fast.localhost", "/", { "user-agent": BROWSER });
    const text = await (await fetch(`${s.url}/metrics`)).text();
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",host="subdomain",status="200"\} [1-9]/);
    const pages = Number(/^page_cache_pages (\d+)$/m.exec(text)?.[1]);
    const bytes = Number(/^page_cache_bytes (\d+)$/m.exec(text)?.[1]);
    expect(pages).toBe(s.sites.cache?.size);
    expect(pages).toBeGreaterThan(0);
    expect(bytes).toBeGreaterThan(pages * 1024);
  });
});
