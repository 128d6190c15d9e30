// The rendered-page cache in a running server: what is kept, what drops it, the HTTP validators
// and CDN headers, and the two-round-trip budget of a page that is not cached.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import {
  blogPosts,
  bookSeries,
  bookSeriesSlugs,
  bookSlugs,
  books,
  profiles,
  subscriptions,
  user,
  websites,
} from "../db/schema/index.ts";
import { markSiteChanged, SITE_CHANGED_CHANNEL } from "../server/modules/sites/site-changes.service.ts";
import { s, startFileServer } from "../testing/file-server.ts";
import { hostRequest, hostRequestBytes } from "../testing/test-server.ts";

startFileServer();
type Res = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

const hit = (host: string, path: string, headers: Record<string, string> = {}, method = "GET") =>
  hostRequest(s.port, host, method, path, headers);

/** The response as bytes, for compressed bodies. */
const raw = (host: string, path: string, headers: Record<string, string>) =>
  hostRequestBytes(s.port, host, "GET", path, headers);

/**
 * Counts the statements the app sends to the database while `fn` runs, by wrapping the driver
 * under Drizzle (PGlite's and pg's `query` alike). Timer work (visit flush, cache sweep, the mail
 * outbox's poll, the newsletters job marking sends finished) is left out.
 */
async function countQueries(db: Db, fn: () => Promise<unknown>): Promise<string[]> {
  const client = (db as unknown as { session: { client: { query: (...a: unknown[]) => unknown } } }).session.client;
  const original = client.query;
  const seen: string[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0];
    const text = typeof q === "string" ? q : String((q as { text?: string }).text ?? "");
    if (!/website_analytics|"updated_at" > \$1|"mail_outbox"|^update "newsletters"/.test(text)) seen.push(text);
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    client.query = original;
  }
  return seen;
}

async function makeSite(sub: string) {
  const db = s.database.db;
  const id = crypto.randomUUID();
  await db.insert(user).values({ id, name: `Author ${sub}`, email: `${sub}@example.com`, emailVerified: true });
  // A bio, so that the About page is one readers see (ADR 052).
  await db.insert(profiles).values({ id, name: `Author ${sub}`, email: `${sub}@example.com`, bio: "<p>Bio</p>" });
  await db.insert(websites).values({ userId: id, subdomain: sub, websiteName: `Site ${sub}` });
  await db.insert(subscriptions).values({ userId: id, tier: "mini", status: "active" });
  const [book] = await db
    .insert(books)
    .values({
      userId: id,
      title: `Book of ${sub}`,
      slug: `book-of-${sub}`,
      author: `Author ${sub}`,
      shortBlurb: "<p>Blurb</p>",
    })
    .returning({ id: books.id });
  await db
    .insert(blogPosts)
    .values({ userId: id, title: "First post", slug: "first-post", content: "<p>Hello</p>", category: "news" });
  return { id, bookId: book?.id ?? "", bookPath: `/book/book-of-${sub}` };
}

beforeAll(async () => {}, 60_000);

describe("the page cache", () => {
  it("serves a repeat request without touching the database, with a strong ETag and CDN headers", async () => {
    const { bookPath } = await makeSite("cachedone");
    const first = await hit("cachedone.localhost", bookPath);
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60");
    expect(first.headers["cdn-cache-control"]).toBe("public, max-age=60, stale-while-revalidate=300");
    expect(first.headers.vary).toBe("Cookie, Accept-Encoding");
    expect(String(first.headers["surrogate-key"])).toMatch(/^site-[0-9a-f-]{36}$/);

    let again: Res | undefined;
    const queries = await countQueries(s.database.db, async () => {
      again = await hit("cachedone.localhost", bookPath);
    });
    expect(queries).toEqual([]);
    expect(again?.body).toBe(first.body);
    expect(again?.headers.etag).toBe(etag);
    expect(again?.headers["content-security-policy"]).toBe(first.headers["content-security-policy"]);

    const revalidated = await hit("cachedone.localhost", bookPath, { "if-none-match": `W/"x", ${etag}` });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBe("");
    expect(revalidated.headers.etag).toBe(etag);
    expect(revalidated.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60");
    expect((await hit("cachedone.localhost", bookPath, { "if-none-match": '"other"' })).status).toBe(200);

    const head = await hit("cachedone.localhost", bookPath, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(etag);
  });

  it("renders a page asked for many times at once only once, and every reader gets the same bytes", async () => {
    await makeSite("crowded");
    const asks = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? "HEAD" : "GET"));
    let answers: Res[] = [];
    const queries = await countQueries(s.database.db, async () => {
      answers = await Promise.all(asks.map((method) => hit("crowded.localhost", "/books", {}, method)));
    });
    // One render: the site's context and the page's books, read once for all twelve readers.
    // (On PGlite a statement runs within its request's turn, so renders never overlap anyway:
    // this fails without the coalescing only on PostgreSQL, with DATABASE_URL set.)
    expect(queries.length).toBe(2);
    const gets = answers.filter((_, i) => asks[i] === "GET");
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(gets.map((a) => a.body)).size).toBe(1);
    expect(gets[0]?.body).toContain("Book of crowded");
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    expect(answers.filter((_, i) => asks[i] === "HEAD").every((a) => a.body === "")).toBe(true);
    // The same bytes a render on its own gives, once the cache is dropped.
    const { id } = (
      await s.database.db.select({ id: websites.userId }).from(websites).where(eq(websites.subdomain, "crowded"))
    )[0] ?? { id: "" };
    await markSiteChanged(s.database.db, id);
    const alone = await hit("crowded.localhost", "/books");
    expect(alone.body).toBe(gets[0]?.body);
  });

  it("lets readers waiting on a render that is not shared render their own answer", async () => {
    await makeSite("crowdmiss");
    const answers = await Promise.all(Array.from({ length: 6 }, () => hit("crowdmiss.localhost", "/no-such-page")));
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
  });

  it("compresses a kept page once per encoding, with its own validator", async () => {
    const { bookPath: path } = await makeSite("squeezed");
    const plain = await raw("squeezed.localhost", path, {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const html = plain.body.toString("utf8");
    expect(html).toContain("Book of squeezed");

    const br = await raw("squeezed.localhost", path, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).toString("utf8")).toBe(html);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    const gz = await raw("squeezed.localhost", path, { "accept-encoding": "gzip;q=1, br;q=0" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString("utf8")).toBe(html);
    expect((await raw("squeezed.localhost", path, { "accept-encoding": "identity" })).headers["content-encoding"]).toBe(
      undefined,
    );

    // Each representation has its own strong ETag, and each revalidates.
    const tags = new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]);
    expect(tags.size).toBe(3);
    const again = await raw("squeezed.localhost", path, {
      "accept-encoding": "br",
      "if-none-match": String(br.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(br.headers.etag);
    const crossed = await raw("squeezed.localhost", path, {
      "accept-encoding": "br",
      "if-none-match": String(plain.headers.etag),
    });
    expect(crossed.status).toBe(200);
  });

  it("keeps a separate page for a reader who made a cookie choice", async () => {
    await makeSite("cookieone");
    const fresh = await hit("cookieone.localhost", "/");
    const chosen = await hit("cookieone.localhost", "/", { cookie: "cookie_consent=accepted" });
    expect(fresh.body).toContain('id="cc"');
    expect(chosen.body).not.toContain('id="cc"');
    expect(chosen.headers.etag).not.toBe(fresh.headers.etag);
    expect((await hit("cookieone.localhost", "/")).body).toContain('id="cc"');
  });

  it("drops a site's pages when markSiteChanged is called, and only that site's", async () => {
    const a = await makeSite("changera");
    await makeSite("changerb");
    const before = await hit("changera.localhost", "/");
    await hit("changerb.localhost", "/");
    const db = s.database.db;
    await db.transaction(async (tx) => {
      await tx.update(websites).set({ websiteName: "Renamed A" }).where(eq(websites.userId, a.id));
      await markSiteChanged(tx, a.id);
    });
    const after = await hit("changera.localhost", "/");
    expect(after.body).toContain("Renamed A");
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // The old validator no longer matches: the reader gets the new page.
    expect((await hit("changera.localhost", "/", { "if-none-match": String(before.headers.etag) })).status).toBe(200);
    const untouched = await countQueries(db, () => hit("changerb.localhost", "/"));
    expect(untouched).toEqual([]);
  });

  it("drops a site's pages on a site_changed notice from another process", async () => {
    const a = await makeSite("notified");
    await hit("notified.localhost", "/about");
    const db = s.database.db;
    // What another process's markSiteChanged does: a write and a NOTIFY, nothing in this process.
    await db.update(profiles).set({ name: "Notified Name" }).where(eq(profiles.id, a.id));
    expect((await hit("notified.localhost", "/about")).body).not.toContain("Notified Name");
    await db.execute(sql`select pg_notify(${SITE_CHANGED_CHANNEL}, ${a.id})`);
    let body = "";
    for (let i = 0; i < 50 && !body.includes("Notified Name"); i++) {
      await new Promise((r) => setTimeout(r, 40));
      body = (await hit("notified.localhost", "/about")).body;
    }
    expect(body).toContain("Notified Name");
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "drops every page when its lost LISTEN link comes back, since notices may have been missed",
    async () => {
      const a = await makeSite("relisten");
      await hit("relisten.localhost", "/about");
      const db = s.database.db;
      // Changed by another process whose notice is sent while this one's link is down.
      await db.update(profiles).set({ name: "Missed Notice" }).where(eq(profiles.id, a.id));
      await db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and query ilike 'listen%'`,
      );
      let body = "";
      for (let i = 0; i < 100 && !body.includes("Missed Notice"); i++) {
        await new Promise((r) => setTimeout(r, 50));
        body = (await hit("relisten.localhost", "/about")).body;
      }
      expect(body).toContain("Missed Notice");
    },
  );

  it("finds subscription changes made without a notice on its sweep", async () => {
    const a = await makeSite("swept");
    expect((await hit("swept.localhost", "/")).status).toBe(200);
    await s.database.db
      .update(subscriptions)
      .set({ status: "expired", updatedAt: new Date() })
      .where(eq(subscriptions.userId, a.id));
    expect((await hit("swept.localhost", "/")).status).toBe(200);
    await s.sites.sweepNow();
    const gone = await hit("swept.localhost", "/");
    expect(gone.status).toBe(503);
    expect(gone.headers["cache-control"]).toBe("no-store");
  });

  it("never caches or shares the owner's preview", async () => {
    await makeSite("previewed");
    const res = await hit("localhost", "/author/previewed/books");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers.etag).toBeUndefined();
    const queries = await countQueries(s.database.db, () => hit("localhost", "/author/previewed/books"));
    expect(queries.length).toBeGreaterThan(0);
  });
});

describe("query strings", () => {
  it("do not make a page or a cache entry per value: an unknown blog category is the unfiltered blog", async () => {
    const { bookPath } = await makeSite("junkquery");
    const host = "junkquery.localhost";
    const pages = ["/blog", "/", "/books", bookPath, "/about", "/contact", "/privacy"];
    for (const p of pages) expect((await hit(host, p)).status).toBe(200);
    const plainBlog = await hit(host, "/blog");
    const cache = s.sites.cache;
    if (!cache) throw new Error("the page cache is off");
    const entries = cache.size;
    const junk = () => Math.random().toString(36).slice(2);
    const answers: Res[] = [];
    const queries = await countQueries(s.database.db, async () => {
      for (let i = 0; i < 200; i++) {
        const p = pages[i % pages.length];
        const q = i % 2 ? `category=${junk()}` : `${junk()}=${junk()}&category=${junk()}`;
        answers.push(await hit(host, `${p}?${q}`));
      }
    });
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // No renders (a render reads the site from the database) and no new entries.
    expect(queries).toEqual([]);
    expect(cache.size).toBe(entries);
    const blog = answers[0];
    expect(blog?.headers.etag).toBe(plainBlog.headers.etag);
    // A real category is still its own page.
    const news = await hit(host, "/blog?category=news");
    expect(news.status).toBe(200);
    expect(news.headers.etag).not.toBe(plainBlog.headers.etag);
  });
});

describe("a page that is not cached", () => {
  it("costs at most two database round trips, on every kind of page", async () => {
    const a = await makeSite("roundtrips");
    const db = s.database.db;
    await db.update(books).set({ seriesName: "Round Trips", orderInSeries: 1 }).where(eq(books.id, a.bookId));
    // A series renamed from "Old Round Trips": its old address answers 301 in the same read.
    const [series] = await db
      .insert(bookSeries)
      .values({ userId: a.id, name: "Round Trips" })
      .returning({ id: bookSeries.id });
    await db.insert(bookSeriesSlugs).values({ userId: a.id, slug: "old-round-trips", seriesId: series?.id ?? "" });
    await db.insert(bookSlugs).values({ userId: a.id, slug: "old-round-trips-book", bookId: a.bookId });
    const paths = [
      "/series/round-trips",
      "/series/old-round-trips",
      "/series/no-such-series",
      "/",
      "/books",
      a.bookPath,
      // Its id and a title it had before answer 301 to its address, from the same one read.
      `/book/${a.bookId}`,
      "/book/old-round-trips-book",
      "/book/00000000-0000-0000-0000-000000000000",
      "/about",
      "/blog",
      "/blog?category=news",
      "/blog/no-such-post",
      "/newsletter",
      "/contact",
      "/privacy",
      "/news",
      "/sitemap.xml",
      "/rss.xml",
      "/robots.txt",
      "/no-such-page",
    ];
    const counts: Record<string, number> = {};
    const statuses: Record<string, number> = {};
    for (const p of paths) {
      await markSiteChanged(db, a.id);
      let status = 0;
      const queries = await countQueries(db, async () => {
        status = (await hit("roundtrips.localhost", p)).status;
      });
      expect([200, 301, 404]).toContain(status);
      expect(queries.length, `${p}: ${queries.join("\n")}`).toBeLessThanOrEqual(2);
      counts[p] = queries.length;
      statuses[p] = status;
    }
    // Not cached means really rendered: the context query at least, and the page's own.
    // The home page shows the featured or latest book, so it reads the books too.
    expect(counts["/"]).toBe(2);
    expect(counts["/about"]).toBe(1);
    expect(counts[a.bookPath]).toBe(2);
    expect([counts[`/book/${a.bookId}`], statuses[`/book/${a.bookId}`]]).toEqual([2, 301]);
    expect([counts["/book/old-round-trips-book"], statuses["/book/old-round-trips-book"]]).toEqual([2, 301]);
    expect(counts["/books"]).toBe(2);
    expect(counts["/series/round-trips"]).toBe(2);
    expect(counts["/series/old-round-trips"]).toBe(2);
    expect(statuses["/series/old-round-trips"]).toBe(301);
  });

  it("costs one round trip when its site was read lately, until the site changes", async () => {
    const a = await makeSite("onetrip");
    const db = s.database.db;
    const readsSite = (q: string) => /from "websites"/.test(q);
    expect((await hit("onetrip.localhost", "/")).status).toBe(200);
    // Other pages of the site, not cached yet: only their own queries (ADR 040).
    const books = await countQueries(db, async () => {
      expect((await hit("onetrip.localhost", "/books")).status).toBe(200);
    });
    expect(books).toHaveLength(1);
    expect(books.some(readsSite)).toBe(false);
    const about = await countQueries(db, async () => {
      expect((await hit("onetrip.localhost", "/about")).status).toBe(200);
    });
    expect(about).toEqual([]);
    // The owner's preview reads the site afresh all the same.
    const preview = await countQueries(db, async () => {
      expect((await hit("localhost", "/author/onetrip/about")).status).toBe(200);
    });
    expect(preview.some(readsSite)).toBe(true);
    // The owner changes their name: the site is read again and readers see the new one.
    await db.update(profiles).set({ name: "Renamed Onetrip" }).where(eq(profiles.id, a.id));
    await markSiteChanged(db, a.id);
    let contact: Res | undefined;
    const afterChange = await countQueries(db, async () => {
      contact = await hit("onetrip.localhost", "/contact");
    });
    expect(afterChange.some(readsSite)).toBe(true);
    expect(contact?.body).toContain("Renamed Onetrip");
  });
});
