// The buy box (issue 17 part 1, ADR 036) through real requests: the reader's own store first by
// the trusted country header or, without one, by Accept-Language; one cached page per country
// group; the matching Vary; clicks through /book/{id}/buy/{link} only to that book's stored
// addresses; shown-first and clicks counted per book and store in the author's Stats, and only there.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookStoreStats, books, retailerLinks } from "../db/schema/index.ts";
import { markSiteChanged } from "../server/modules/sites/site-changes.service.ts";
import { amazonUrlFor, storefrontLabel } from "../shared/storefronts.ts";
import { apiClient, expectStatus } from "../testing/api-client.ts";
import { buyBox, FIREFOX, setUp } from "../testing/buy-box.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../testing/users.ts";

describe("the buy box without a trusted country header", () => {
  let s: TestServer;
  let a: TestAuthor;
  let bookId: string;
  let linkId: (name: string) => string;
  beforeAll(async () => {
    s = await startTestServer();
    ({ a, bookId, linkId } = await setUp(s));
  });
  afterAll(async () => {
    await s?.close();
  });
  const page = (headers: Record<string, string>, path = "/book/the-salt-road") =>
    s.onHost(`${a.subdomain}.localhost`, path, { "user-agent": FIREFOX, ...headers });

  it("puts the reader's store first by their languages, with its price, and the others under Other stores", async () => {
    const uk = await page({ "accept-language": "en-GB,en;q=0.9" });
    expect(uk.status).toBe(200);
    // One Amazon for each reader: their own, shown first; the other marketplaces are not listed.
    expect(buyBox(uk.body)).toEqual({
      first: "Amazon.co.uk",
      others: ["Kobo", "Indie Shop"],
      price: "£4.99",
    });
    expect(uk.headers.vary).toBe("Cookie, Accept-Encoding, Accept-Language");
    expect(buyBox((await page({ "accept-language": "de-CH, en;q=0.5" })).body)).toMatchObject({
      first: "Amazon.de",
      price: "€5.99",
    });
    expect(buyBox((await page({ "accept-language": "de" })).body).first).toBe("Amazon.de");
    // No store of their own: the author's first, at the book's own price.
    for (const lang of ["en-US", "fr-FR", "ja", ""]) {
      const box = buyBox((await page(lang ? { "accept-language": lang } : {})).body);
      expect(box, lang).toEqual({
        first: "Amazon.com",
        others: ["Kobo", "Indie Shop"],
        price: "$12.99",
      });
    }
    // A country header is nobody's word until the operator names it.
    expect(buyBox((await page({ "cf-ipcountry": "DE", "accept-language": "en-GB" })).body).first).toBe("Amazon.co.uk");
  });

  it("shows one Amazon to each reader, their own, after 'Add all' put Barnes & Noble before Amazon.com", async () => {
    const author = await createAuthor(s);
    const [book] = await s.database.db
      .insert(books)
      .values({ userId: author.id, title: "All Stores", slug: "all-stores", author: author.name })
      .returning({ id: books.id });
    const id = book?.id ?? "";
    const slug = "all-stores";
    // The editor's order after a UK Amazon link, Barnes & Noble, then "Add all" of the marketplaces.
    const amazons = ["us", "de", "fr", "es", "it", "nl", "ca", "au", "in"] as const;
    await s.database.db.insert(retailerLinks).values([
      {
        bookId: id,
        retailerName: "Amazon.co.uk",
        retailerUrl: "https://www.amazon.co.uk/dp/B0ALLSTORE",
        storefront: "amazon-uk",
        sortOrder: 0,
      },
      {
        bookId: id,
        retailerName: "Barnes & Noble",
        retailerUrl: "https://www.barnesandnoble.com/w/all",
        storefront: "barnes-noble",
        sortOrder: 1,
      },
      ...amazons.map((m, i) => ({
        bookId: id,
        retailerName: storefrontLabel(`amazon-${m}`),
        retailerUrl: amazonUrlFor(`amazon-${m}`, "B0ALLSTORE") ?? "",
        storefront: `amazon-${m}`,
        sortOrder: 2 + i,
      })),
      {
        bookId: id,
        retailerName: "Kobo",
        retailerUrl: "https://www.kobo.com/ebook/all",
        storefront: "kobo",
        sortOrder: 20,
      },
    ]);
    const view = async (lang: string) => {
      const res = await s.onHost(`${author.subdomain}.localhost`, `/book/${slug}`, { "accept-language": lang });
      return buyBox(res.body);
    };
    expect(await view("en-US")).toMatchObject({ first: "Amazon.com", others: ["Barnes & Noble", "Kobo"] });
    expect(await view("en-GB")).toMatchObject({ first: "Amazon.co.uk", others: ["Barnes & Noble", "Kobo"] });
    expect(await view("de-DE")).toMatchObject({ first: "Amazon.de", others: ["Barnes & Noble", "Kobo"] });
    expect(await view("ja")).toMatchObject({ first: "Amazon.co.uk", others: ["Barnes & Noble", "Kobo"] });
  });

  it("lists the reader's Amazon under Other stores when the author's first store is another", async () => {
    const author = await createAuthor(s);
    const [book] = await s.database.db
      .insert(books)
      .values({ userId: author.id, title: "Kobo First", slug: "kobo-first", author: author.name })
      .returning({ id: books.id });
    const id = book?.id ?? "";
    const slug = "kobo-first";
    await s.database.db.insert(retailerLinks).values([
      {
        bookId: id,
        retailerName: "Kobo",
        retailerUrl: "https://www.kobo.com/ebook/k",
        storefront: "kobo",
        sortOrder: 0,
      },
      {
        bookId: id,
        retailerName: "Amazon.co.uk",
        retailerUrl: "https://www.amazon.co.uk/dp/B0KOBOFRST",
        storefront: "amazon-uk",
        sortOrder: 1,
      },
      {
        bookId: id,
        retailerName: "Amazon.com",
        retailerUrl: "https://www.amazon.com/dp/B0KOBOFRST",
        storefront: "amazon-us",
        sortOrder: 2,
      },
      {
        bookId: id,
        retailerName: "Amazon.de",
        retailerUrl: "https://www.amazon.de/dp/B0KOBOFRST",
        storefront: "amazon-de",
        sortOrder: 3,
      },
    ]);
    const view = async (lang: string) =>
      buyBox((await s.onHost(`${author.subdomain}.localhost`, `/book/${slug}`, { "accept-language": lang })).body);
    // Kobo serves everyone: it never wins on country, but the reader's own marketplace does.
    expect(await view("en-US")).toMatchObject({ first: "Amazon.com", others: ["Kobo"] });
    // No marketplace of their own: the author's first store, and the author's first Amazon only.
    expect(await view("ja")).toMatchObject({ first: "Kobo", others: ["Amazon.co.uk"] });
    expect(await view("fr-FR")).toMatchObject({ first: "Kobo", others: ["Amazon.co.uk"] });
  });

  it("shows every saved store link: a book whose only link is a small shop has its buy button", async () => {
    const author = await createAuthor(s);
    const [book] = await s.database.db
      .insert(books)
      .values({ userId: author.id, title: "Small Shop", slug: "small-shop", author: author.name })
      .returning({ id: books.id });
    const [link] = await s.database.db
      .insert(retailerLinks)
      .values({ bookId: book?.id ?? "", retailerName: "Indie Shop", retailerUrl: "https://shop.example/small" })
      .returning({ id: retailerLinks.id });
    const res = await s.onHost(`${author.subdomain}.localhost`, "/book/small-shop", { "accept-language": "en-GB" });
    expect(buyBox(res.body)).toMatchObject({ first: "Indie Shop", others: [] });
    const go = await s.onHost(`${author.subdomain}.localhost`, `/book/${book?.id}/buy/${link?.id}`);
    expect(go.headers.location).toBe("https://shop.example/small");
  });

  it("keeps one cached copy per country group, not one per request", async () => {
    const fresh = await setUp(s);
    const path = "/book/the-salt-road";
    const on = (lang: string) =>
      s.onHost(`${fresh.a.subdomain}.localhost`, path, { "user-agent": FIREFOX, "accept-language": lang });
    const before = s.sites.cache?.size ?? 0;
    for (const lang of ["en-GB", "en-GB,en;q=0.9", "en-IE", "en-gb;q=1", "cy-GB"]) await on(lang);
    expect(s.sites.cache?.size).toBe(before + 1);
    for (const lang of ["de-DE", "de-AT", "de", "de-CH,de;q=0.9"]) await on(lang);
    expect(s.sites.cache?.size).toBe(before + 2);
    for (const lang of ["ja", "pt-BR", "en", "zh-Hant-TW"]) await on(lang);
    expect(s.sites.cache?.size).toBe(before + 3);
    // Other pages do not vary by country at all.
    const home = await s.onHost(`${fresh.a.subdomain}.localhost`, "/", { "accept-language": "en-GB" });
    await s.onHost(`${fresh.a.subdomain}.localhost`, "/", { "accept-language": "de-DE" });
    expect(home.status).toBe(200);
    expect(s.sites.cache?.size).toBe(before + 4);
    expect(home.headers.vary).toBe("Cookie, Accept-Encoding");
    // A book with one store is the same page for everyone: kept once, without Vary.
    const [single] = await s.database.db
      .insert(books)
      .values({ userId: fresh.a.id, title: "One Store", slug: "one-store", author: "J" })
      .returning({ id: books.id });
    await s.database.db.insert(retailerLinks).values({
      bookId: single?.id ?? "",
      retailerName: "Amazon",
      retailerUrl: "https://www.amazon.com/dp/B0ONESTORE",
      storefront: "amazon-us",
      sortOrder: -1,
    });
    const onSingle = (lang: string) =>
      s.onHost(`${fresh.a.subdomain}.localhost`, "/book/one-store", { "accept-language": lang });
    const sizeBefore = s.sites.cache?.size ?? 0;
    for (const lang of ["en-GB", "de-DE", "en-US", "ja", "en-GB"]) {
      const res = await onSingle(lang);
      expect(buyBox(res.body).first, lang).toBe("Amazon");
      expect(res.headers.vary, lang).toBe("Cookie, Accept-Encoding");
    }
    expect(s.sites.cache?.size).toBe(sizeBefore + 1);
    // Several stores none of which wins on country (the first is everyone's fallback): still once.
    await s.database.db.insert(retailerLinks).values([
      { bookId: single?.id ?? "", retailerName: "Kobo", retailerUrl: "https://www.kobo.com/x", storefront: "kobo" },
      { bookId: single?.id ?? "", retailerName: "Shop", retailerUrl: "https://shop.example/x", sortOrder: 1 },
    ]);
    await markSiteChanged(s.database.db, fresh.a.id);
    const afterChange = s.sites.cache?.size ?? 0;
    for (const lang of ["en-GB", "de-DE", "en-US"]) {
      const res = await onSingle(lang);
      expect(buyBox(res.body), lang).toMatchObject({ first: "Amazon", others: ["Kobo", "Shop"] });
      expect(res.headers.vary, lang).toBe("Cookie, Accept-Encoding");
    }
    expect(s.sites.cache?.size).toBe(afterChange + 1);
  });

  it("sends a click to that book's stored address for that link, and nowhere else", async () => {
    const go = await page({}, `/book/${bookId}/buy/${linkId("Kobo")}`);
    expect(go.status).toBe(302);
    expect(go.headers.location).toBe("https://www.kobo.com/ebook/salt-road");
    expect(go.headers["cache-control"]).toBe("no-store");
    expect((await page({}, `/book/${bookId}/buy/${linkId("Amazon.com")}`)).headers.location).toBe(
      "https://www.amazon.com/dp/B0SALTROAD",
    );
    // Pages kept from before the book's own Amazon link became a store link still lead somewhere.
    expect((await page({}, `/book/${bookId}/buy/amazon`)).headers.location).toBe(
      "https://www.amazon.com/dp/B0SALTROAD",
    );
    // Another book's link, another author's book, made-up ids and addresses: not found.
    const other = await setUp(s);
    for (const path of [
      `/book/${bookId}/buy/${other.linkId("Kobo")}`,
      `/book/${other.bookId}/buy/${linkId("Kobo")}`,
      `/book/${bookId}/buy/00000000-0000-4000-8000-000000000000`,
      `/book/${bookId}/buy/https%3A%2F%2Fevil.example`,
      `/book/${bookId}/buy/${linkId("Kobo")}/https://evil.example`,
      `/book/not-a-book/buy/amazon`,
    ]) {
      const res = await page({}, path);
      expect(res.status, path).toBe(404);
      expect(res.headers.location, path).toBeUndefined();
    }
    // A hidden book's links go nowhere either.
    await s.database.db.update(books).set({ visibilityEnabled: false }).where(eq(books.id, other.bookId));
    await markSiteChanged(s.database.db, other.a.id);
    const hidden = `/book/${other.bookId}/buy/${other.linkId("Amazon.com")}`;
    expect((await s.onHost(`${other.a.subdomain}.localhost`, hidden)).status).toBe(404);
  });

  it("counts the store shown first and clicks per store, cookie-less, in the author's Stats only", async () => {
    const fresh = await setUp(s);
    const host = `${fresh.a.subdomain}.localhost`;
    const path = "/book/the-salt-road";
    const view = (lang: string, ua = FIREFOX) => s.onHost(host, path, { "user-agent": ua, "accept-language": lang });
    await view("en-GB");
    await view("en-GB"); // from the cache: still counted
    await view("de-DE");
    await view("en-US");
    await view("en-GB", "Googlebot/2.1 (+http://www.google.com/bot.html)");
    // Four readers (a click counts once per reader, book and day), and a bot.
    const click = (link: string, ua: string) => s.onHost(host, `${path}/buy/${link}`, { "user-agent": ua });
    expect((await click(fresh.linkId("Amazon.co.uk"), `${FIREFOX} 1`)).status).toBe(302);
    await click(fresh.linkId("Amazon.co.uk"), `${FIREFOX} 2`);
    await click(fresh.linkId("Indie Shop"), `${FIREFOX} 3`);
    await click(fresh.linkId("Amazon.com"), `${FIREFOX} 4`);
    await click(fresh.linkId("Kobo"), "curl/8.0");
    expect((await s.onHost(host, `${path}/buy/${fresh.linkId("Kobo")}`, { cookie: "x=1" })).headers["set-cookie"]).toBe(
      undefined,
    );
    await s.sites.flushVisits();

    const body = await expectStatus(apiClient(s, fresh.a).stats.$get({ query: { days: "7" } }), 200);
    expect(body.stores).toEqual([
      {
        bookId: fresh.bookId,
        title: "The Salt Road",
        stores: [
          { store: "amazon-uk", label: "Amazon.co.uk", shown: 2, clicks: 2 },
          { store: "amazon-us", label: "Amazon.com", shown: 1, clicks: 1 },
          { store: "other", label: "Other", shown: 0, clicks: 1 },
          { store: "amazon-de", label: "Amazon.de", shown: 1, clicks: 0 },
        ],
      },
    ]);
    // No reader is stored: only the book, the day, the store and two counts.
    const rows = await s.database.db
      .select()
      .from(bookStoreStats)
      .where(and(eq(bookStoreStats.bookId, fresh.bookId), eq(bookStoreStats.store, "amazon-uk")));
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(["bookId", "clicks", "date", "shown", "store"]);

    // Another author sees none of it.
    const other = await createAuthor(s);
    const theirs = await expectStatus(apiClient(s, other).stats.$get({ query: { days: "7" } }), 200);
    expect(theirs.stores).toEqual([]);
    expect(JSON.stringify(theirs)).not.toContain("Salt Road");
  });
});
