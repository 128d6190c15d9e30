// Visit counting through real requests: what counts as a page view, unique visitors per day,
// nothing that identifies a reader in the database, and the counts written on shutdown.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../app/server.ts";
import { openDatabase } from "../db/client.ts";
import { books, profiles, user, websiteAnalytics, websites } from "../db/schema/index.ts";
import { freePort } from "../testing/resources.ts";
import { hostRequest, startTestServer, type TestServer, testEnv } from "../testing/test-server.ts";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const hit = (port: number, host: string, path: string, headers: Record<string, string> = {}, method = "GET") =>
  hostRequest(port, host, method, path, headers);

async function makeSite(db: RunningServer["database"]["db"], sub: string) {
  const id = crypto.randomUUID();
  await db.insert(user).values({ id, name: sub, email: `${sub}@example.com` });
  await db.insert(profiles).values({ id, name: sub, email: `${sub}@example.com`, bio: "<p>Bio</p>" });
  const [site] = await db
    .insert(websites)
    .values({ userId: id, subdomain: sub, websiteName: sub })
    .returning({ id: websites.id });
  const [book] = await db
    .insert(books)
    .values({ userId: id, title: "A book", slug: "a-book", author: sub })
    .returning({ id: books.id });
  return { userId: id, websiteId: site?.id ?? "", bookId: book?.id ?? "" };
}

const today = () => new Date().toISOString().slice(0, 10);

describe("visit counting on public pages", () => {
  let s: TestServer;
  beforeAll(async () => {
    // Behind a trusted proxy the reader's address comes from X-Forwarded-For: two readers here.
    s = await startTestServer({ TRUST_PROXY: "true" });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it("counts page views and unique visitors of HTML pages, not bots, assets, errors or previews", async () => {
    const site = await makeSite(s.database.db, "counted");
    const other = await makeSite(s.database.db, "uncounted");
    const h = (path: string, headers: Record<string, string> = {}, method = "GET") =>
      hit(s.port, "counted.localhost", path, headers, method);
    const reader1 = { "user-agent": FIREFOX, "x-forwarded-for": "203.0.113.7" };
    const reader2 = { "user-agent": SAFARI, "x-forwarded-for": "198.51.100.23, 203.0.113.99" };

    // Reader 1: three pages (the second from the cache), then a revalidation (304) of one.
    expect((await h("/", reader1)).status).toBe(200);
    const books = await h("/books", reader1);
    expect((await h("/books", reader1)).status).toBe(200);
    expect((await h("/books", { ...reader1, "if-none-match": String(books.headers.etag) })).status).toBe(304);
    // Reader 2: two pages.
    expect((await h("/book/a-book", reader2)).status).toBe(200);
    expect((await h("/about", reader2)).status).toBe(200);
    // Not page views:
    await h("/", { "user-agent": GOOGLEBOT, "x-forwarded-for": "66.249.66.1" });
    await h("/", { "x-forwarded-for": "192.0.2.1" }); // no user agent: a script
    await h("/", reader1, "HEAD");
    await h("/", { ...reader1, "sec-purpose": "prefetch" });
    await h("/no-such-page", reader1);
    await h("/book/00000000-0000-0000-0000-000000000000", reader1);
    await h("/sitemap.xml", reader1);
    await h("/robots.txt", reader1);
    await h("/rss.xml", reader1);
    await hit(s.port, "localhost", "/_fonts/merriweather-400.woff2", reader1);
    await hit(s.port, "localhost", "/author/counted/about", reader1);

    await s.sites.flushVisits();
    const rows = await s.database.db.select().from(websiteAnalytics);
    const mine = rows.filter((r) => r.websiteId === site.websiteId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ date: today(), pageViews: 6, uniqueVisitors: 2 });
    expect(rows.some((r) => r.websiteId === other.websiteId)).toBe(false);
    // Only counts are kept: no address, agent or visitor hash anywhere in the row.
    expect(Object.keys(mine[0] ?? {}).sort()).toEqual(["date", "id", "pageViews", "uniqueVisitors", "websiteId"]);
    expect(JSON.stringify(rows)).not.toMatch(/203\.0\.113|198\.51\.100|Firefox|Safari/);

    // The same readers later the same day add views, not visitors; the row is updated in place.
    await h("/", reader1);
    await h("/", reader2);
    await s.sites.flushVisits();
    const [again] = await s.database.db
      .select()
      .from(websiteAnalytics)
      .where(eq(websiteAnalytics.websiteId, site.websiteId));
    expect(again).toMatchObject({ pageViews: 8, uniqueVisitors: 2 });
  });
});

describe("shutdown", () => {
  it("writes the buffered counts before the database closes", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "bookplate-visits-"));
    try {
      const port = await freePort();
      const env = testEnv({ PORT: String(port), DATA_DIR: dataDir });
      const server = await startServer(env);
      const site = await makeSite(server.database.db, "shutdown");
      for (let i = 0; i < 4; i++) await hit(port, "shutdown.localhost", "/", { "user-agent": FIREFOX });
      await server.close();

      const database = await openDatabase({ dataDir });
      try {
        const [row] = await database.db
          .select()
          .from(websiteAnalytics)
          .where(eq(websiteAnalytics.websiteId, site.websiteId));
        expect(row).toMatchObject({ pageViews: 4, uniqueVisitors: 1 });
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
