import { describe, expect, it } from "vitest";
import { etagOf, PageCache, utf8Bytes } from "./page-cache.ts";

const page = (body: string) => ({
  status: 200,
  body,
  etag: etagOf(body),
  headers: {},
  websiteId: "w",
  countsAsView: true,
});

describe("PageCache", () => {
  it("drops every page of one site and keeps the others", () => {
    const cache = new PageCache();
    cache.set("a", "a|/", page("a home"));
    cache.set("a", "a|/books", page("a books"));
    cache.set("b", "b|/", page("b home"));
    cache.dropSite("a");
    expect(cache.get("a|/")).toBeUndefined();
    expect(cache.get("a|/books")).toBeUndefined();
    expect(cache.get("b|/")?.body).toBe("b home");
    expect(cache.size).toBe(1);
  });

  it("evicts the least recently used page when full", () => {
    // Each page costs about 3 kB of the 16 kB budget: five fit, a sixth evicts one.
    const cache = new PageCache(16_000);
    for (const n of [1, 2, 3, 4, 5]) cache.set("a", `/${n}`, page(String(n).repeat(1000)));
    cache.get("/1");
    cache.set("a", "/6", page("6".repeat(1000)));
    expect(cache.get("/1")).toBeDefined();
    expect(cache.get("/2")).toBeUndefined();
    expect(cache.get("/6")).toBeDefined();
  });

  it("gives a page read since it was stored a second chance, and evicts the oldest unread one", () => {
    // Five pages of ~3 kB each fill the 16 kB budget; each page stored after them evicts one.
    const cache = new PageCache(16_000);
    for (const n of [1, 2, 3, 4, 5]) cache.set("a", `/${n}`, page(String(n).repeat(1000)));
    cache.get("/4");
    cache.get("/2");
    for (const n of [6, 7, 8]) cache.set("a", `/${n}`, page(String(n).repeat(1000)));
    expect([1, 2, 3, 4, 5].map((n) => cache.get(`/${n}`) !== undefined)).toEqual([false, true, false, true, false]);
  });

  it("keeps the page being stored when every other page was read", () => {
    const cache = new PageCache(16_000);
    for (const n of [1, 2, 3, 4, 5]) cache.set("a", `/${n}`, page(String(n).repeat(1000)));
    for (const n of [1, 2, 3, 4, 5]) cache.get(`/${n}`);
    cache.set("a", "/6", page("6".repeat(1000)));
    expect(cache.get("/6")).toBeDefined();
    expect(cache.get("/1")).toBeUndefined();
    expect(cache.size).toBe(5);
  });

  it("keeps a page read between stores while four times the cache's worth of new pages arrive", () => {
    const cache = new PageCache(16_000);
    cache.set("a", "/hot", page("h".repeat(1000)));
    for (let n = 0; n < 20; n++) {
      cache.set("a", `/${n}`, page(String(n % 10).repeat(1000)));
      expect(cache.get("/hot")).toBeDefined();
    }
    expect(cache.size).toBe(5);
  });

  it("forgets a page older than its safety-net age", () => {
    let now = 1_000;
    const cache = new PageCache(1_000_000, 60_000, () => now);
    cache.set("a", "/", page("x"));
    now += 59_000;
    expect(cache.get("/")).toBeDefined();
    now += 2_000;
    expect(cache.get("/")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("stops serving a page at its own expiry (a countdown's midnight)", () => {
    let now = Date.parse("2031-03-13T23:59:00Z");
    const cache = new PageCache(1_000_000, 5 * 60_000, () => now);
    cache.set("a", "/book/x", { ...page("in 1 day"), expiresAt: Date.parse("2031-03-14T00:00:00Z") });
    expect(cache.get("/book/x")).toBeDefined();
    now += 60_000;
    expect(cache.get("/book/x")).toBeUndefined();
  });

  it("gives equal bodies equal etags and different bodies different ones", () => {
    expect(etagOf("same")).toBe(etagOf("same"));
    expect(etagOf("one")).not.toBe(etagOf("two"));
    expect(etagOf("one")).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });
});

describe("a page's UTF-8 bytes", () => {
  const pages = [
    "",
    "<p>plain ASCII</p>",
    "<p>Zoë’s “novel” — ★★★★☆ £8.99 ©</p>",
    "<p>日本語の本 📚 and a lone surrogate \ud800 here</p>",
    `<main>${"<p>Ἀρχή — ★ </p>".repeat(5000)}</main>`,
    `${"x".repeat(600 * 1024)}★`, // past the scratch buffer's limit
  ];
  it("are exactly what Buffer.from makes, for every kind of string", () => {
    for (const page of pages) expect(utf8Bytes(page).equals(Buffer.from(page, "utf8"))).toBe(true);
  });
  it("do not share memory with the next page encoded", () => {
    const first = utf8Bytes("<p>first ★</p>");
    utf8Bytes("<p>second, and longer ★</p>");
    expect(first.toString("utf8")).toBe("<p>first ★</p>");
    expect(first.buffer.byteLength).toBe(first.byteLength);
  });
  it("keep the same validator as before", () => {
    const body = utf8Bytes("<p>★</p>");
    expect(etagOf(body)).toBe(etagOf("<p>★</p>"));
    expect(etagOf(body)).toMatch(/^"[\w-]{27}"$/);
  });
});
