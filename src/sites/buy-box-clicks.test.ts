// Store clicks counted once per reader, book and day (ADR 049), and the buy box behind a proxy that
// sets the reader's country. The buy box without one: buy-box.test.ts.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookStoreClickers, bookStoreStats, books, retailerLinks } from "../db/schema/index.ts";
import { markSiteChanged } from "../server/modules/sites/site-changes.service.ts";
import { recordStoreClick } from "../server/modules/stats/stats.service.ts";
import { buyBox, FIREFOX, setUp } from "../testing/buy-box.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import type { TestAuthor } from "../testing/users.ts";

describe("store clicks, once per reader, book and day (ADR 049)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });
  const clicksOf = async (bookId: string) => {
    const rows = await s.database.db.select().from(bookStoreStats).where(eq(bookStoreStats.bookId, bookId));
    return rows.map((r) => ({ date: r.date, store: r.store, clicks: r.clicks })).filter((r) => r.clicks > 0);
  };
  const today = new Date().toISOString().slice(0, 10);

  it("counts 50 clicks of one reader once, still sending each to the store; two readers twice", async () => {
    const { a, bookId, linkId } = await setUp(s);
    const host = `${a.subdomain}.localhost`;
    const links = [linkId("Amazon.co.uk"), linkId("Kobo"), linkId("Amazon.com")];
    for (let i = 0; i < 50; i++) {
      const go = await s.onHost(host, `/book/${bookId}/buy/${links[i % 3]}`, { "user-agent": FIREFOX });
      expect(go.status).toBe(302);
      expect(go.headers.location).toMatch(/^https:\/\/www\.(amazon|kobo)\./);
    }
    expect(await clicksOf(bookId)).toEqual([{ date: today, store: "amazon-uk", clicks: 1 }]);
    // A second reader (another browser at the same address) is another click; then also only once.
    for (let i = 0; i < 5; i++)
      await s.onHost(host, `/book/${bookId}/buy/${linkId("Kobo")}`, { "user-agent": "Other/1" });
    expect(await clicksOf(bookId)).toEqual(
      expect.arrayContaining([
        { date: today, store: "amazon-uk", clicks: 1 },
        { date: today, store: "kobo", clicks: 1 },
      ]),
    );
    expect((await clicksOf(bookId)).reduce((n, r) => n + r.clicks, 0)).toBe(2);
    // The same reader on another book of the site is counted for that book.
    const other = await s.database.db
      .insert(books)
      .values({ userId: a.id, title: "Second", slug: "second", author: a.name })
      .returning({ id: books.id });
    const secondId = other[0]?.id ?? "";
    const [second] = await s.database.db
      .insert(retailerLinks)
      .values({
        bookId: secondId,
        retailerName: "Amazon",
        retailerUrl: "https://www.amazon.com/dp/B0SECOND",
        storefront: "amazon-us",
      })
      .returning({ id: retailerLinks.id });
    await markSiteChanged(s.database.db, a.id);
    for (let i = 0; i < 3; i++) await s.onHost(host, `/book/${secondId}/buy/${second?.id}`, { "user-agent": FIREFOX });
    expect(await clicksOf(secondId)).toEqual([{ date: today, store: "amazon-us", clicks: 1 }]);
    // What is kept of a reader: a number per book and day, nothing that names them.
    const kept = await s.database.db.select().from(bookStoreClickers).where(eq(bookStoreClickers.bookId, bookId));
    expect(kept).toHaveLength(2);
    expect(Object.keys(kept[0] ?? {}).sort()).toEqual(["bookId", "date", "reader"]);
  });

  it("counts the same reader again the next day, and forgets the day before yesterday", async () => {
    const { bookId } = await setUp(s);
    const reader = { address: "203.0.113.8", userAgent: FIREFOX };
    const db = s.database.db;
    const day = (n: number) => new Date(Date.now() + n * 86_400_000);
    expect(await recordStoreClick(db, bookId, "kobo", reader, day(0))).toBe(true);
    expect(await recordStoreClick(db, bookId, "kobo", reader, day(0))).toBe(false);
    expect(await recordStoreClick(db, bookId, "kobo", reader, day(1))).toBe(true);
    expect(await recordStoreClick(db, bookId, "kobo", reader, day(1))).toBe(false);
    // Another process (its own memory of what it counted, the same database) agrees: not again.
    const otherProcess = new Proxy(db, {});
    expect(await recordStoreClick(otherProcess, bookId, "kobo", reader, day(1))).toBe(false);
    expect(await recordStoreClick(otherProcess, bookId, "kobo", { ...reader, address: "203.0.113.9" }, day(1))).toBe(
      true,
    );
    const byDay = (await clicksOf(bookId)).sort((x, y) => x.date.localeCompare(y.date));
    expect(byDay).toEqual([
      { date: day(0).toISOString().slice(0, 10), store: "kobo", clicks: 1 },
      { date: day(1).toISOString().slice(0, 10), store: "kobo", clicks: 2 },
    ]);
    await recordStoreClick(db, bookId, "kobo", reader, day(2));
    await recordStoreClick(db, bookId, "kobo", reader, day(3));
    const dates = (await db.select().from(bookStoreClickers).where(eq(bookStoreClickers.bookId, bookId))).map(
      (r) => r.date,
    );
    expect(dates.sort()).toEqual([day(2), day(3)].map((d) => d.toISOString().slice(0, 10)));
  });
});

describe("the buy box behind a proxy that sets the country", () => {
  let s: TestServer;
  let a: TestAuthor;
  beforeAll(async () => {
    s = await startTestServer({ COUNTRY_HEADER: "CF-IPCountry" });
    ({ a } = await setUp(s));
  });
  afterAll(async () => {
    await s?.close();
  });
  const page = (headers: Record<string, string>) =>
    s.onHost(`${a.subdomain}.localhost`, "/book/the-salt-road", { "user-agent": FIREFOX, ...headers });

  it("puts the store of the header's country first, whatever the languages, and says so in Vary", async () => {
    const gb = await page({ "cf-ipcountry": "GB", "accept-language": "de-DE" });
    expect(buyBox(gb.body).first).toBe("Amazon.co.uk");
    expect(gb.headers.vary).toBe("Cookie, Accept-Encoding, cf-ipcountry");
    expect(buyBox((await page({ "cf-ipcountry": "AT", "accept-language": "en-GB" })).body).first).toBe("Amazon.de");
    expect(buyBox((await page({ "cf-ipcountry": "ie" })).body).first).toBe("Amazon.co.uk");
    for (const country of ["US", "BR", "XX", "T1", "", "GBR"]) {
      expect(buyBox((await page({ "cf-ipcountry": country, "accept-language": "en-GB" })).body).first, country).toBe(
        "Amazon.com",
      );
    }
    // Without the header the reader's languages are not guessed from: the CDN keys by the header alone.
    expect(buyBox((await page({ "accept-language": "de-DE" })).body).first).toBe("Amazon.com");
  });
});
