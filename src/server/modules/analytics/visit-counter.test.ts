import { eq, type SQL } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  user,
  visitSalts,
  websiteAnalytics,
  websitePageStats,
  websiteReferrerStats,
  websites,
  websiteVisitors,
} from "../../../db/schema/index.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { isBot, MAX_SOURCES_PER_DAY, OTHER_SOURCE, referrerSource, VisitCounter } from "./visit-counter.ts";

startFileServer();
let siteId: string;
const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130 Safari/537.36";

beforeAll(async () => {
  const id = crypto.randomUUID();
  await s.database.db.insert(user).values({ id, name: "V", email: "visits@example.com" });
  const [site] = await s.database.db
    .insert(websites)
    .values({ userId: id, subdomain: "visits", websiteName: "Visits" })
    .returning({ id: websites.id });
  siteId = site?.id ?? "";
});

async function counts(day: string) {
  const rows = await s.database.db.select().from(websiteAnalytics).where(eq(websiteAnalytics.websiteId, siteId));
  return rows.find((r) => r.date === day);
}

describe("visit counting", () => {
  it("counts views and unique visitors per day, without bots", async () => {
    let now = new Date("2026-03-01T10:00:00Z");
    const counter = new VisitCounter(s.database.db, { now: () => now });
    counter.record(siteId, "203.0.113.1", browser);
    counter.record(siteId, "203.0.113.1", browser);
    counter.record(siteId, "203.0.113.2", browser);
    counter.record(siteId, "203.0.113.3", "Googlebot/2.1");
    await counter.flush();
    expect(await counts("2026-03-01")).toMatchObject({ pageViews: 3, uniqueVisitors: 2 });

    counter.record(siteId, "203.0.113.1", browser);
    await counter.flush();
    expect(await counts("2026-03-01")).toMatchObject({ pageViews: 4, uniqueVisitors: 2 });

    // A new day has a new salt: yesterday's visitor is new again, and nothing links them.
    now = new Date("2026-03-02T00:00:01Z");
    counter.record(siteId, "203.0.113.1", browser);
    await counter.stop();
    expect(await counts("2026-03-02")).toMatchObject({ pageViews: 1, uniqueVisitors: 1 });
  });

  it("counts a reader and a page asked again in a row, and each one between them, by itself", async () => {
    const now = new Date("2026-08-01T10:00:00Z");
    const counter = new VisitCounter(s.database.db, { now: () => now });
    const view = (address: string, agent: string, path: string) =>
      counter.record(siteId, address, agent, { path, source: null });
    view("203.0.113.21", browser, "/");
    view("203.0.113.21", browser, "/");
    view("203.0.113.22", browser, "/books");
    view("203.0.113.21", browser, "/");
    view("203.0.113.21", `${browser} Edg/130`, "/books");
    view("203.0.113.21", browser, "/books");
    await counter.flush();
    // After a write, the same reader and page again: still counted, into the stored rows.
    view("203.0.113.21", browser, "/");
    view("203.0.113.23", browser, "/");
    await counter.flush();
    expect(await counts("2026-08-01")).toMatchObject({ pageViews: 8, uniqueVisitors: 4 });
    const pages = await s.database.db.select().from(websitePageStats).where(eq(websitePageStats.websiteId, siteId));
    expect(
      pages
        .filter((r) => r.date === "2026-08-01")
        .map((r) => [r.path, r.views])
        .sort(),
    ).toEqual([
      ["/", 5],
      ["/books", 3],
    ]);
  });

  it("writes a day's views that were still waiting when the day ended to that day", async () => {
    let now = new Date("2026-06-01T23:59:58Z");
    const counter = new VisitCounter(s.database.db, { now: () => now });
    counter.record(siteId, "203.0.113.9", browser, { path: "/books", source: "" });
    counter.record(siteId, "203.0.113.9", browser, { path: "/books", source: "" });
    now = new Date("2026-06-02T00:00:01Z");
    counter.record(siteId, "203.0.113.9", browser, { path: "/", source: "" });
    await counter.flush();
    expect(await counts("2026-06-01")).toMatchObject({ pageViews: 2, uniqueVisitors: 1 });
    expect(await counts("2026-06-02")).toMatchObject({ pageViews: 1, uniqueVisitors: 1 });
    const pages = await s.database.db.select().from(websitePageStats).where(eq(websitePageStats.websiteId, siteId));
    expect(pages.filter((r) => r.date.startsWith("2026-06")).map((r) => [r.date, r.path, r.views])).toEqual(
      expect.arrayContaining([
        ["2026-06-01", "/books", 2],
        ["2026-06-02", "/", 1],
      ]),
    );
  });

  it("writes many sites' counts a few rows per statement, each site's to its own rows", async () => {
    const day = "2026-07-01";
    const sites: string[] = [];
    for (let n = 0; n < 5; n++) {
      const id = crypto.randomUUID();
      await s.database.db.insert(user).values({ id, name: `C${n}`, email: `chunks${n}@example.com` });
      const [site] = await s.database.db
        .insert(websites)
        .values({ userId: id, subdomain: `chunks${n}`, websiteName: `Chunks ${n}` })
        .returning({ id: websites.id });
      sites.push(site?.id ?? "");
    }
    // Every statement the counter runs, as the database gets it.
    const texts: string[] = [];
    const dialect = (s.database.db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string } } }).dialect;
    const watched = new Proxy(s.database.db, {
      get(target, prop, receiver) {
        if (prop !== "execute") return Reflect.get(target, prop, receiver);
        return (q: SQL) => {
          texts.push(dialect.sqlToQuery(q).sql);
          return target.execute(q);
        };
      },
    });
    // Site n has n + 1 readers, each on a page of their own; the first reader comes back.
    const counter = new VisitCounter(watched, { now: () => new Date(`${day}T10:00:00Z`), rowsPerStatement: 2 });
    const visit = () => {
      for (const [n, id] of sites.entries()) {
        for (let k = 0; k <= n; k++) counter.record(id, `192.0.2.${k}`, browser, { path: `/p${k}`, source: "" });
        counter.record(id, "192.0.2.0", browser, { path: "/p0", source: "" });
      }
    };
    visit();
    await counter.flush();
    visit(); // the same readers again: views, not visitors
    await counter.flush();
    // Five sites, two rows a statement: each table's rows go in three statements of one text
    // (arrays, not a placeholder per value), whatever the number of rows in each (ADR 076).
    const totals = texts.filter((t) => t.startsWith('insert into "website_analytics"'));
    expect(totals).toHaveLength(6);
    expect(new Set(totals).size).toBe(1);
    expect(new Set(texts.filter((t) => t.startsWith('insert into "website_page_stats"'))).size).toBe(1);
    const db = s.database.db;
    for (const [n, id] of sites.entries()) {
      const [total] = await db.select().from(websiteAnalytics).where(eq(websiteAnalytics.websiteId, id));
      expect(total, `site ${n}`).toMatchObject({ date: day, pageViews: 2 * (n + 2), uniqueVisitors: n + 1 });
      const pages = await db.select().from(websitePageStats).where(eq(websitePageStats.websiteId, id));
      expect(pages.map((r) => [r.path, r.views]).sort(), `site ${n}`).toEqual(
        Array.from({ length: n + 1 }, (_, k) => [`/p${k}`, k === 0 ? 4 : 2]),
      );
      const sources = await db.select().from(websiteReferrerStats).where(eq(websiteReferrerStats.websiteId, id));
      expect(
        sources.map((r) => [r.source, r.visits]),
        `site ${n}`,
      ).toEqual([["", 2 * (n + 2)]]);
    }
  });

  it("recognises common bots and tools", () => {
    expect(isBot("Mozilla/5.0 (compatible; bingbot/2.0)")).toBe(true);
    expect(isBot("Mozilla/5.0 ... Chrome-Lighthouse")).toBe(true);
    expect(isBot(undefined)).toBe(true);
    expect(isBot(browser)).toBe(false);
  });

  it("keeps only the referring site's host; the site's own pages are not arrivals", () => {
    expect(referrerSource("https://www.Google.com/search?q=private", "me.example")).toBe("google.com");
    expect(referrerSource("http://blog.example:8080/post", "me.example")).toBe("blog.example");
    expect(referrerSource("https://me.example/books", "me.example")).toBeNull();
    expect(referrerSource(undefined, "me.example")).toBe("");
    expect(referrerSource("not a url", "me.example")).toBe("");
    expect(referrerSource("android-app://com.google.android.gm/", "me.example")).toBe("");
  });

  it("keeps a bounded number of referring sites a day; the rest are counted together", async () => {
    const counter = new VisitCounter(s.database.db, { now: () => new Date("2026-04-01T10:00:00Z") });
    for (let i = 0; i < MAX_SOURCES_PER_DAY + 5; i++) {
      counter.record(siteId, `198.51.100.${i}`, browser, { path: "/", source: `site${i}.example` });
    }
    counter.record(siteId, "198.51.100.1", browser, { path: "/", source: "site0.example" });
    await counter.flush();
    const rows = (await s.database.db.select().from(websiteReferrerStats)).filter(
      (r) => r.websiteId === siteId && r.date === "2026-04-01",
    );
    expect(rows).toHaveLength(MAX_SOURCES_PER_DAY + 1);
    expect(rows.find((r) => r.source === OTHER_SOURCE)?.visits).toBe(5);
    expect(rows.find((r) => r.source === "site0.example")?.visits).toBe(2);
  });

  it("counts a reader once a day across processes: two counters on one database share who was seen", async () => {
    const now = new Date("2026-05-01T09:00:00Z");
    const one = new VisitCounter(s.database.db, { now: () => now });
    const two = new VisitCounter(s.database.db, { now: () => now });
    one.record(siteId, "203.0.113.7", browser);
    two.record(siteId, "203.0.113.7", browser); // the proxy sent the same reader to the other process
    two.record(siteId, "203.0.113.8", browser);
    await one.flush();
    await two.flush();
    expect(await counts("2026-05-01")).toMatchObject({ pageViews: 3, uniqueVisitors: 2 });
    // Later the same day, on either process: a view, not a visitor.
    one.record(siteId, "203.0.113.8", browser);
    await one.flush();
    expect(await counts("2026-05-01")).toMatchObject({ pageViews: 4, uniqueVisitors: 2 });

    // What is stored to tell them apart: numbers, no address or browser; one salt for the day.
    const stored = await s.database.db.select().from(websiteVisitors).where(eq(websiteVisitors.date, "2026-05-01"));
    expect(stored.filter((r) => r.websiteId === siteId)).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toMatch(/203\.0\.113|Chrome/);
    expect((await s.database.db.select().from(visitSalts).where(eq(visitSalts.date, "2026-05-01"))).length).toBe(1);

    // Two days on, the old day's slices and salt are gone.
    const later = new VisitCounter(s.database.db, { now: () => new Date("2026-05-03T09:00:00Z") });
    later.record(siteId, "203.0.113.7", browser);
    await later.stop();
    expect(await s.database.db.select().from(websiteVisitors).where(eq(websiteVisitors.date, "2026-05-01"))).toEqual(
      [],
    );
    expect(await s.database.db.select().from(visitSalts).where(eq(visitSalts.date, "2026-05-01"))).toEqual([]);
    expect(await counts("2026-05-03")).toMatchObject({ pageViews: 1, uniqueVisitors: 1 });
  });
});
