// The books API end to end over HTTP: create/read/update/delete with everything hanging off a
// book, the spec's validation messages, the plan limit (also under concurrent requests), one
// featured book, positions rewritten atomically, and the site marked changed on every change.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookGenres, books, retailerLinks, reviews, subscriptions } from "../../../db/schema/index.ts";
import { callApi, type Json } from "../../../testing/api-client.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, createSignedInUser, type TestAuthor } from "../../../testing/users.ts";
import { SITE_CHANGED_CHANNEL } from "../sites/site-changes.service.ts";

let s: TestServer;
const changes: string[] = [];
let stopListening: () => Promise<void>;

beforeAll(async () => {
  s = await startTestServer();
  stopListening = await s.database.listen(SITE_CHANGED_CHANNEL, (p) => changes.push(p));
});
afterAll(async () => {
  await stopListening?.();
  await s?.close();
});

const create = (a: TestAuthor, over: Json = {}) =>
  callApi(s, a, "POST", "/api/books", { title: "A Book", author: "Jane Author", ...over });

async function createOk(a: TestAuthor, over: Json = {}): Promise<Json> {
  const r = await create(a, over);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.book;
}

const titles = async (a: TestAuthor) =>
  ((await callApi(s, a, "GET", "/api/books")).body.books as Json[]).map((b) => b.title);

const positions = async (userId: string) =>
  (await s.database.db.select({ sortOrder: books.sortOrder }).from(books).where(eq(books.userId, userId)))
    .map((r) => r.sortOrder)
    .sort((x, y) => x - y);

/** Waits until the site-changed notice for this author has arrived `n` more times. */
async function expectSiteChanged(userId: string, before: number, atLeast = 1) {
  await expect.poll(() => changes.filter((c) => c === userId).length - before).toBeGreaterThanOrEqual(atLeast);
}
const changeCount = (userId: string) => changes.filter((c) => c === userId).length;

const FULL = {
  title: "  The Lighthouse Keeper  ",
  author: " Jane Author ",
  subtitle: "A Cornish Mystery",
  isbn: "978-0-306-40615-7",
  shortBlurb: "<p>A keeper, a <strong>storm</strong>.</p><script>alert(1)</script>",
  releaseDate: "2025-03-14",
  seriesName: "Tides",
  orderInSeries: 2,
  formatEbook: true,
  formatPaperback: true,
  formatHardback: false,
  formatAudiobook: true,
  formatKindleUnlimited: true,
  primaryPriceMinor: 899,
  primaryCurrency: "USD",
  isFeatured: true,
  visibilityEnabled: true,
  userRating: 4.5,
  showUserRating: true,
  bestsellerBadgeEnabled: true,
  promoBadgeEnabled: true,
  promoBadgeText: "99p this week",
  amazonRatingEnabled: true,
  reviewSnippet: "Gripping.",
  audiobookEnabled: true,
  narratorName: "N. Arrator",
  audioSampleUrl: "https://example.com/sample.mp3",
  retailerLinks: [
    { retailerName: "Bookshop", retailerUrl: "https://bookshop.org/a/1" },
    { retailerName: "Waterstones", retailerUrl: "https://www.waterstones.com/book/1" },
  ],
  genres: ["Mystery", "Coastal", "mystery"],
  reviews: [
    { rating: 4.5, reviewerName: "A. Reader", reviewText: "Could not put it down.", reviewDate: "2025-04-01" },
    { rating: null, reviewerName: null, reviewText: "Lovely.", reviewDate: null },
  ],
};

describe("books CRUD", () => {
  it("needs a session", async () => {
    for (const [method, path] of [
      ["GET", "/api/books"],
      ["GET", "/api/books/capacity"],
      ["POST", "/api/books"],
    ] as const) {
      const res = await s.api(path, { method, ...(method === "POST" ? { json: { title: "T", author: "A" } } : {}) });
      expect(res.status).toBe(401);
      expect((await res.json()).error).toEqual({ code: "unauthenticated", message: "Not authenticated" });
    }
  });

  it("creates a book with every field, links, genres and reviews, and reads it back", async () => {
    const a = await createAuthor(s, { tier: "midi" });
    const before = changeCount(a.id);
    const book = await createOk(a, FULL);
    expect(book).toMatchObject({
      title: "The Lighthouse Keeper",
      author: "Jane Author",
      subtitle: "A Cornish Mystery",
      isbn: "978-0-306-40615-7",
      shortBlurb: "<p>A keeper, a <strong>storm</strong>.</p>",
      releaseDate: "2025-03-14",
      orderInSeries: 2,
      primaryPriceMinor: 899,
      primaryCurrency: "USD",
      isFeatured: true,
      userRating: 4.5,
      promoBadgeText: "99p this week",
      narratorName: "N. Arrator",
      sortOrder: 0,
      hiddenByPlan: false,
      overLimit: false,
      genres: ["Mystery", "Coastal"],
    });
    expect(book.userId).toBeUndefined();
    expect(book.retailerLinks.map((l: Json) => l.retailerName)).toEqual(["Bookshop", "Waterstones"]);
    expect(book.reviews.map((r: Json) => r.reviewText)).toEqual(["Could not put it down.", "Lovely."]);
    expect(book.reviews[0]).toMatchObject({ rating: 4.5, reviewerName: "A. Reader", reviewDate: "2025-04-01" });
    await expectSiteChanged(a.id, before);

    const got = await callApi(s, a, "GET", `/api/books/${book.id}`);
    expect(got.status).toBe(200);
    expect(got.body.book).toEqual(book);
    const list = await callApi(s, a, "GET", "/api/books");
    expect(list.body.books).toHaveLength(1);
    expect(list.body.books[0]).toMatchObject({ id: book.id, title: "The Lighthouse Keeper" });
  });

  it("applies the spec's defaults and saves empty optional text as none", async () => {
    const a = await createAuthor(s);
    const book = await createOk(a, {
      title: "Plain",
      author: "A",
      subtitle: "   ",
      seriesName: "",
      shortBlurb: "<p></p>",
      reviewSnippet: " ",
      narratorName: null,
    });
    expect(book).toMatchObject({
      subtitle: null,
      seriesName: null,
      shortBlurb: null,
      reviewSnippet: null,
      narratorName: null,
      formatEbook: true,
      formatPaperback: false,
      formatHardback: false,
      formatAudiobook: false,
      formatKindleUnlimited: false,
      visibilityEnabled: true,
      isFeatured: false,
      primaryCurrency: "GBP",
      primaryPriceMinor: null,
      showUserRating: false,
      amazonRatingEnabled: false,
      coverImageUrl: null,
      retailerLinks: [],
      genres: [],
      reviews: [],
    });
  });

  it("updates fields and syncs links and reviews by id, keeping their rows", async () => {
    const a = await createAuthor(s);
    const book = await createOk(a, FULL);
    const [bookshop, waterstones] = book.retailerLinks;
    const [first] = book.reviews;
    const before = changeCount(a.id);
    const r = await callApi(s, a, "PATCH", `/api/books/${book.id}`, {
      subtitle: "",
      primaryPriceMinor: 1299,
      retailerLinks: [
        { id: waterstones.id, retailerName: "Waterstones UK", retailerUrl: "https://waterstones.com/x" },
        { id: bookshop.id, retailerName: "Bookshop", retailerUrl: "https://bookshop.org/a/1" },
        { retailerName: "Kobo", retailerUrl: "http://kobo.com/b" },
      ],
      genres: ["Thriller"],
      reviews: [{ ...first, reviewText: "Edited." }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.book).toMatchObject({
      subtitle: null,
      primaryPriceMinor: 1299,
      genres: ["Thriller"],
      title: "The Lighthouse Keeper",
    });
    expect(r.body.book.retailerLinks.map((l: Json) => [l.id, l.retailerName])).toEqual([
      [waterstones.id, "Waterstones UK"],
      [bookshop.id, "Bookshop"],
      [expect.any(String), "Kobo"],
    ]);
    expect(r.body.book.reviews).toEqual([expect.objectContaining({ id: first.id, reviewText: "Edited." })]);
    const stored = await s.database.db.select().from(retailerLinks).where(eq(retailerLinks.bookId, book.id));
    expect(stored.map((l) => [l.retailerName, l.sortOrder]).sort()).toEqual([
      ["Bookshop", 1],
      ["Kobo", 2],
      ["Waterstones UK", 0],
    ]);
    await expectSiteChanged(a.id, before);

    // A partial change leaves everything else alone.
    const partial = await callApi(s, a, "PATCH", `/api/books/${book.id}`, { narratorName: "Someone" });
    expect(partial.body.book).toMatchObject({ narratorName: "Someone", primaryPriceMinor: 1299, genres: ["Thriller"] });
    expect(partial.body.book.retailerLinks).toHaveLength(3);
  });

  it("lists reviews as the public page does: latest review date first, undated last, a save's order kept among equals", async () => {
    const a = await createAuthor(s);
    const book = await createOk(a, {
      title: "Reviewed",
      author: "A",
      reviews: [
        { reviewText: "Undated one", reviewDate: null },
        { reviewText: "Old", reviewDate: "2021-06-01" },
        { reviewText: "Undated two", reviewDate: null },
        { reviewText: "New", reviewDate: "2025-01-09" },
        { reviewText: "Middle", reviewDate: "2023-03-03" },
      ],
    });
    const order = ["New", "Middle", "Old", "Undated one", "Undated two"];
    expect(book.reviews.map((r: Json) => r.reviewText)).toEqual(order);
    expect(
      (await callApi(s, a, "GET", `/api/books/${book.id}`)).body.book.reviews.map((r: Json) => r.reviewText),
    ).toEqual(order);
    // A review added later with the newest date goes to the top; its edit keeps every id.
    const r = await callApi(s, a, "PATCH", `/api/books/${book.id}`, {
      reviews: [...book.reviews, { reviewText: "Newest", reviewDate: "2026-02-02" }],
    });
    expect(r.body.book.reviews.map((x: Json) => x.reviewText)).toEqual(["Newest", ...order]);
    expect(r.body.book.reviews.slice(1).map((x: Json) => x.id)).toEqual(book.reviews.map((x: Json) => x.id));
  });

  it("deletes a book with its links, genres and reviews, and closes the gap in positions", async () => {
    const a = await createAuthor(s);
    const one = await createOk(a, { ...FULL, title: "One" });
    await createOk(a, { title: "Two" });
    await createOk(a, { title: "Three" });
    const before = changeCount(a.id);
    const r = await callApi(s, a, "DELETE", `/api/books/${one.id}`);
    expect(r.status).toBe(204);
    expect(await titles(a)).toEqual(["Two", "Three"]);
    expect(await positions(a.id)).toEqual([0, 1]);
    for (const t of [retailerLinks, bookGenres, reviews]) {
      expect(await s.database.db.select().from(t).where(eq(t.bookId, one.id))).toHaveLength(0);
    }
    await expectSiteChanged(a.id, before);
    expect((await callApi(s, a, "GET", `/api/books/${one.id}`)).status).toBe(404);
    expect((await callApi(s, a, "DELETE", `/api/books/${one.id}`)).status).toBe(404);
  });

  it("answers 404 'Book not found' for ids that are not books", async () => {
    const a = await createAuthor(s);
    for (const id of ["nope", "00000000-0000-0000-0000-000000000000", "1%27%20or%201=1"]) {
      const r = await callApi(s, a, "GET", `/api/books/${id}`);
      expect(r.status).toBe(404);
      expect(r.body.error.message).toBe("Book not found");
    }
  });

  it("hides and shows a book", async () => {
    const a = await createAuthor(s);
    const book = await createOk(a);
    let before = changeCount(a.id);
    const hide = await callApi(s, a, "PATCH", `/api/books/${book.id}/visibility`, { visible: false });
    expect(hide.status).toBe(200);
    expect(hide.body.book.visibilityEnabled).toBe(false);
    await expectSiteChanged(a.id, before);
    before = changeCount(a.id);
    const show = await callApi(s, a, "PATCH", `/api/books/${book.id}/visibility`, { visible: true });
    expect(show.body.book.visibilityEnabled).toBe(true);
    await expectSiteChanged(a.id, before);
    expect((await callApi(s, a, "PATCH", `/api/books/${book.id}/visibility`, { visible: "yes" })).status).toBe(400);
  });
});

describe("validation with the spec's rules and messages", () => {
  let a: TestAuthor;
  let bookId: string;
  beforeAll(async () => {
    a = await createAuthor(s, { tier: "mega" });
    bookId = (await createOk(a, { title: "Fixed", author: "Fixed" })).id;
  });

  const cases: [string, Json, string, string][] = [
    ["missing title", { title: "   " }, "title", "Book title is required"],
    ["missing author", { author: "" }, "author", "Author name is required"],
    ["null author", { author: null }, "author", "Author name is required"],
    ["bad ISBN checksum", { isbn: "978-0-306-40615-8" }, "isbn", "Please enter a valid ISBN-10 or ISBN-13"],
    ["ISBN of the wrong length", { isbn: "12345" }, "isbn", "Please enter a valid ISBN-10 or ISBN-13"],
    [
      "series number 0",
      { orderInSeries: 0 },
      "orderInSeries",
      "Book number in series must be a whole number of at least 1",
    ],
    [
      "series number 1.5",
      { orderInSeries: 1.5 },
      "orderInSeries",
      "Book number in series must be a whole number of at least 1",
    ],
    [
      "series number as text",
      { orderInSeries: "2" },
      "orderInSeries",
      "Book number in series must be a whole number of at least 1",
    ],
    ["rating above 5", { userRating: 5.1 }, "userRating", "Star rating must be between 0 and 5"],
    ["rating below 0", { userRating: -0.1 }, "userRating", "Star rating must be between 0 and 5"],
    ["rating off the 0.1 step", { userRating: 4.25 }, "userRating", "Star rating must be in steps of 0.1"],
    ["price as text", { primaryPriceMinor: "8.99" }, "primaryPriceMinor", "Please enter a valid price"],
    ["absurd price", { primaryPriceMinor: 1e12 }, "primaryPriceMinor", "Price is too large"],
    [
      "unknown currency",
      { primaryCurrency: "JPY" },
      "primaryCurrency",
      "Currency must be one of GBP, USD, EUR, CAD, AUD",
    ],
    [
      "javascript: store link",
      { retailerLinks: [{ retailerName: "Amazon", retailerUrl: "javascript:alert(1)" }] },
      "retailerLinks.0.retailerUrl",
      "Retailer URL must start with http:// or https://",
    ],
    [
      "promo badge without text",
      { promoBadgeEnabled: true, promoBadgeText: "" },
      "promoBadgeText",
      "Promo badge text is required when the promo badge is on",
    ],
    [
      "promo text too long",
      { promoBadgeEnabled: true, promoBadgeText: "x".repeat(41) },
      "promoBadgeText",
      "Promo badge text must be at most 40 characters",
    ],
    [
      "retailer link without a name",
      { retailerLinks: [{ retailerName: " ", retailerUrl: "https://x.com" }] },
      "retailerLinks.0.retailerName",
      "Retailer name is required",
    ],
    [
      "retailer link without a URL",
      { retailerLinks: [{ retailerName: "Shop", retailerUrl: "" }] },
      "retailerLinks.0.retailerUrl",
      "Retailer URL is required",
    ],
    [
      "ftp retailer link",
      { retailerLinks: [{ retailerName: "Shop", retailerUrl: "ftp://x.com" }] },
      "retailerLinks.0.retailerUrl",
      "Retailer URL must start with http:// or https://",
    ],
    [
      "javascript: retailer link",
      { retailerLinks: [{ retailerName: "Shop", retailerUrl: "javascript:alert(1)//https://x.com" }] },
      "retailerLinks.0.retailerUrl",
      "Retailer URL must start with http:// or https://",
    ],
    [
      "unknown storefront",
      { retailerLinks: [{ retailerName: "Shop", retailerUrl: "https://x.com", storefront: "amazon-mars" }] },
      "retailerLinks.0.storefront",
      "Unknown storefront",
    ],
    [
      "a link that is another store's",
      {
        retailerLinks: [
          { retailerName: "Amazon UK", retailerUrl: "https://www.amazon.com/dp/B000000001", storefront: "amazon-uk" },
        ],
      },
      "retailerLinks.0.retailerUrl",
      "This link goes to Amazon.com, not Amazon.co.uk",
    ],
    [
      "a price without a currency on another store",
      { retailerLinks: [{ retailerName: "Shop", retailerUrl: "https://x.com", priceMinor: 499 }] },
      "retailerLinks.0.currency",
      "Please choose the currency of the price",
    ],
    [
      "a negative store price",
      {
        retailerLinks: [{ retailerName: "Kobo", retailerUrl: "https://kobo.com/x", priceMinor: -1, currency: "EUR" }],
      },
      "retailerLinks.0.priceMinor",
      "Please enter a valid price",
    ],
    [
      "a store price in an unknown currency",
      {
        retailerLinks: [{ retailerName: "Kobo", retailerUrl: "https://kobo.com/x", priceMinor: 100, currency: "XYZ" }],
      },
      "retailerLinks.0.currency",
      "Currency must be one of USD, GBP, EUR, CAD, AUD, INR",
    ],
    ["review without text", { reviews: [{ reviewText: " " }] }, "reviews.0.reviewText", "Review text is required"],
    [
      "review rating 6",
      { reviews: [{ reviewText: "x", rating: 6 }] },
      "reviews.0.rating",
      "Rating must be between 0 and 5",
    ],
    [
      "impossible release date",
      { releaseDate: "2025-02-30" },
      "releaseDate",
      "Release date must be a valid date (YYYY-MM-DD)",
    ],
    ["title too long", { title: "t".repeat(301) }, "title", "Title must be at most 300 characters"],
    ["control characters", { subtitle: "a\u0007b" }, "subtitle", "Subtitle contains characters that are not allowed"],
    ["an unknown field", { userId: "someone-else" }, "userId", "Unknown field: userId"],
    ["a server-owned field", { sortOrder: 3 }, "sortOrder", "Unknown field: sortOrder"],
    ["a wrong type", { formatEbook: "yes" }, "formatEbook", "formatEbook must be true or false"],
  ];

  for (const [label, over, field, message] of cases) {
    it(`refuses ${label} on create and update, changing nothing`, async () => {
      const before = await s.database.db.select().from(books).where(eq(books.userId, a.id));
      const c = await create(a, over);
      expect(c.status, JSON.stringify(c.body)).toBe(400);
      expect(c.body.error).toMatchObject({ code: "validation_failed", message, field });
      const u = await callApi(s, a, "PATCH", `/api/books/${bookId}`, over);
      expect(u.status, JSON.stringify(u.body)).toBe(400);
      expect(u.body.error).toMatchObject({ code: "validation_failed", message, field });
      expect(await s.database.db.select().from(books).where(eq(books.userId, a.id))).toEqual(before);
    });
  }

  it("refuses a body that is not JSON, and an empty change", async () => {
    const res = await s.api(`/api/books/${bookId}`, {
      method: "PATCH",
      cookie: a.cookie,
      headers: { "content-type": "application/json" },
      body: "{title: oops",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toEqual({ code: "invalid_json", message: "Request body is not valid JSON" });
    expect((await callApi(s, a, "PATCH", `/api/books/${bookId}`, {})).body.error.message).toBe("Nothing to update");
  });

  it("rounds prices to the minor unit and saves a negative price as none", async () => {
    expect((await createOk(a, { primaryPriceMinor: 899.6 })).primaryPriceMinor).toBe(900);
    expect((await createOk(a, { primaryPriceMinor: -5 })).primaryPriceMinor).toBeNull();
    expect((await createOk(a, { primaryPriceMinor: null })).primaryPriceMinor).toBeNull();
    expect((await createOk(a, { primaryPriceMinor: 0 })).primaryPriceMinor).toBe(0);
  });

  it("accepts ISBN-10 (with X) and ISBN-13, rating 0 and 5, series number 1", async () => {
    const b = await createOk(a, { isbn: "0-8044-2957-X", userRating: 0, orderInSeries: 1 });
    expect(b).toMatchObject({ isbn: "0-8044-2957-X", userRating: 0, orderInSeries: 1 });
    expect((await createOk(a, { isbn: "9780306406157", userRating: 5 })).userRating).toBe(5);
  });

  it("keeps promo text only while the promo badge is on", async () => {
    const b = await createOk(a, { promoBadgeEnabled: false, promoBadgeText: "stale" });
    expect(b.promoBadgeText).toBeNull();
    const on = await callApi(s, a, "PATCH", `/api/books/${b.id}`, { promoBadgeEnabled: true, promoBadgeText: "Sale" });
    expect(on.body.book.promoBadgeText).toBe("Sale");
    const off = await callApi(s, a, "PATCH", `/api/books/${b.id}`, { promoBadgeEnabled: false });
    expect(off.body.book).toMatchObject({ promoBadgeEnabled: false, promoBadgeText: null });
  });

  it("keeps each link's storefront (given, or read from its address) and price in the store's currency", async () => {
    const b = await createOk(a, {
      retailerLinks: [
        { retailerName: "Amazon.de", retailerUrl: "https://www.amazon.de/dp/B000000001", priceMinor: 499 },
        { retailerName: "Kobo", retailerUrl: "https://www.kobo.com/ebook/x", storefront: "kobo" },
        { retailerName: "My shop", retailerUrl: "https://shop.example/x", priceMinor: 899, currency: "GBP" },
        { retailerName: "Apple", retailerUrl: "https://apple.co/xyz", storefront: "apple" },
      ],
    });
    expect(b.retailerLinks.map((l: Json) => [l.storefront, l.priceMinor, l.currency])).toEqual([
      ["amazon-de", 499, "EUR"],
      ["kobo", null, null],
      [null, 899, "GBP"],
      ["apple", null, null],
    ]);
    // Replacing the links with none of the new fields keeps reading the store from the address.
    const put = await callApi(s, a, "PUT", `/api/books/${b.id}/retailer-links`, {
      retailerLinks: [{ id: b.retailerLinks[0].id, retailerName: "Amazon", retailerUrl: "https://amazon.co.uk/dp/X1" }],
    });
    expect(put.body.retailerLinks).toEqual([
      expect.objectContaining({ storefront: "amazon-uk", priceMinor: null, currency: null }),
    ]);
  });

  it("dedupes genres whatever their case and drops empty ones", async () => {
    const b = await createOk(a, { genres: [" Sci  Fi ", "sci fi", "", "Fantasy"] });
    expect(b.genres).toEqual(["Sci Fi", "Fantasy"]);
  });
});

describe("featured book", () => {
  it("featuring one book unfeatures the others", async () => {
    const a = await createAuthor(s);
    const one = await createOk(a, { title: "One", isFeatured: true });
    const two = await createOk(a, { title: "Two", isFeatured: true });
    const featured = async () =>
      ((await callApi(s, a, "GET", "/api/books")).body.books as Json[]).filter((b) => b.isFeatured).map((b) => b.title);
    expect(await featured()).toEqual(["Two"]);
    await callApi(s, a, "PATCH", `/api/books/${one.id}`, { isFeatured: true });
    expect(await featured()).toEqual(["One"]);
    await callApi(s, a, "PATCH", `/api/books/${one.id}`, { isFeatured: false });
    expect(await featured()).toEqual([]);
    expect(two.id).toBeTruthy();
  });

  it("stays one when several books are featured at once", async () => {
    const a = await createAuthor(s, { tier: "midi" });
    const ids: string[] = [];
    for (const t of ["A", "B", "C", "D", "E", "F"]) ids.push((await createOk(a, { title: t })).id);
    const results = await Promise.all(
      ids.map((id) => callApi(s, a, "PATCH", `/api/books/${id}`, { isFeatured: true })),
    );
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    const rows = await s.database.db.select().from(books).where(eq(books.userId, a.id));
    expect(rows.filter((b) => b.isFeatured)).toHaveLength(1);
  });

  it("does not touch another author's featured book", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const theirs = await createOk(b, { isFeatured: true });
    await createOk(a, { isFeatured: true });
    expect((await callApi(s, b, "GET", `/api/books/${theirs.id}`)).body.book.isFeatured).toBe(true);
  });
});

describe("plan limit", () => {
  it("reports capacity from the plan, and mini when there is no subscription", async () => {
    const a = await createAuthor(s, { tier: "midi" });
    expect((await callApi(s, a, "GET", "/api/books/capacity")).body).toEqual({
      tier: "midi",
      limit: 10,
      used: 0,
      shown: 0,
      hiddenByPlan: 0,
      canAdd: true,
    });
    const u = await createSignedInUser(s);
    expect((await callApi(s, u, "GET", "/api/books/capacity")).body).toEqual({
      tier: "mini",
      limit: 5,
      used: 0,
      shown: 0,
      hiddenByPlan: 0,
      canAdd: true,
    });
  });

  it("refuses the sixth book on mini with the spec's message, and allows it after an upgrade", async () => {
    const a = await createAuthor(s, { tier: "mini" });
    for (let i = 0; i < 5; i++) await createOk(a, { title: `Book ${i}` });
    expect((await callApi(s, a, "GET", "/api/books/capacity")).body).toEqual({
      tier: "mini",
      limit: 5,
      used: 5,
      shown: 5,
      hiddenByPlan: 0,
      canAdd: false,
    });
    const before = changeCount(a.id);
    const r = await create(a, { title: "Sixth" });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: "plan_limit_reached", message: "Book limit exceeded for current plan" });
    expect(await titles(a)).toHaveLength(5);
    expect(changeCount(a.id)).toBe(before);
    // Hidden books count too: hiding does not make room.
    const first = (await callApi(s, a, "GET", "/api/books")).body.books[0];
    await callApi(s, a, "PATCH", `/api/books/${first.id}/visibility`, { visible: false });
    expect((await create(a, { title: "Sixth" })).status).toBe(403);

    await s.database.db.update(subscriptions).set({ tier: "midi" }).where(eq(subscriptions.userId, a.id));
    expect((await create(a, { title: "Sixth" })).status).toBe(201);
  });

  it("lets exactly the remaining number of racing creates through", async () => {
    const a = await createAuthor(s, { tier: "mini" });
    for (let i = 0; i < 3; i++) await createOk(a, { title: `Book ${i}` });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create(a, { title: `Racer ${i}`, isFeatured: i % 2 === 0 })),
    );
    const codes = results.map((r) => r.status).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(2);
    expect(codes.filter((c) => c === 403)).toHaveLength(6);
    const rows = await s.database.db.select().from(books).where(eq(books.userId, a.id));
    expect(rows).toHaveLength(5);
    expect(await positions(a.id)).toEqual([0, 1, 2, 3, 4]);
  });

  it("lets only one of two racing requests take the last place", async () => {
    const a = await createAuthor(s, { tier: "mini" });
    for (let i = 0; i < 4; i++) await createOk(a, { title: `Book ${i}` });
    const [x, y] = await Promise.all([create(a, { title: "X" }), create(a, { title: "Y" })]);
    expect([x.status, y.status].sort()).toEqual([201, 403]);
    expect(await s.database.db.select().from(books).where(eq(books.userId, a.id))).toHaveLength(5);
  });

  it("a tier written around the billing service: marks books beyond the limit, refuses showing one past it", async () => {
    const a = await createAuthor(s, { tier: "midi" });
    for (let i = 0; i < 7; i++) await createOk(a, { title: `Book ${i}` });
    const all = (await callApi(s, a, "GET", "/api/books")).body.books as Json[];
    const hidden = all[0] as Json;
    await callApi(s, a, "PATCH", `/api/books/${hidden.id}/visibility`, { visible: false });
    await s.database.db.update(subscriptions).set({ tier: "mini" }).where(eq(subscriptions.userId, a.id));

    const list = (await callApi(s, a, "GET", "/api/books")).body.books as Json[];
    // Six visible books on a plan of five: the last visible one (by position) is over the limit.
    expect(list.filter((b) => b.overLimit).map((b) => b.title)).toEqual(["Book 6"]);
    expect(list.find((b) => b.id === hidden.id)?.overLimit).toBe(false);

    // Usage never reads over the plan: five of seven shown, two kept off the site.
    expect((await callApi(s, a, "GET", "/api/books/capacity")).body).toMatchObject({
      limit: 5,
      used: 7,
      shown: 5,
      hiddenByPlan: 1,
    });
    const show = await callApi(s, a, "PATCH", `/api/books/${hidden.id}/visibility`, { visible: true });
    expect(show.status).toBe(403);
    expect(show.body.error).toMatchObject({
      code: "plan_limit_reached",
      message: "Your Mini plan shows 5 books on your site. Hide one of them first, or upgrade to show more.",
    });
    const viaUpdate = await callApi(s, a, "PATCH", `/api/books/${hidden.id}`, { visibilityEnabled: true });
    expect(viaUpdate.status).toBe(403);
    expect((await callApi(s, a, "GET", `/api/books/${hidden.id}`)).body.book.visibilityEnabled).toBe(false);

    // Hiding two others makes room to show it again.
    await callApi(s, a, "PATCH", `/api/books/${list[1]?.id}/visibility`, { visible: false });
    await callApi(s, a, "PATCH", `/api/books/${list[2]?.id}/visibility`, { visible: false });
    expect((await callApi(s, a, "PATCH", `/api/books/${hidden.id}/visibility`, { visible: true })).status).toBe(200);
  });

  it("lets only one of two racing un-hides take the last visible place", async () => {
    const a = await createAuthor(s, { tier: "midi" });
    for (let i = 0; i < 7; i++) await createOk(a, { title: `Book ${i}` });
    const all = (await callApi(s, a, "GET", "/api/books")).body.books as Json[];
    for (const b of all.slice(0, 3)) await callApi(s, a, "PATCH", `/api/books/${b.id}/visibility`, { visible: false });
    await s.database.db.update(subscriptions).set({ tier: "mini" }).where(eq(subscriptions.userId, a.id));
    // 4 visible on a plan of 5: one place left, two requests.
    const [x, y] = await Promise.all([
      callApi(s, a, "PATCH", `/api/books/${all[0]?.id}/visibility`, { visible: true }),
      callApi(s, a, "PATCH", `/api/books/${all[1]?.id}`, { visibilityEnabled: true }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 403]);
    const rows = await s.database.db.select().from(books).where(eq(books.userId, a.id));
    expect(rows.filter((b) => b.visibilityEnabled)).toHaveLength(5);
  });
});

describe("order", () => {
  async function authorWith(n: number) {
    const a = await createAuthor(s, { tier: "midi" });
    for (let i = 0; i < n; i++) await createOk(a, { title: `B${i}` });
    return a;
  }
  const idsOf = async (a: TestAuthor) =>
    ((await callApi(s, a, "GET", "/api/books")).body.books as Json[]).map((b) => b.id as string);

  it("keeps the order books were typed in: a new book goes last, and no other book moves", async () => {
    const a = await authorWith(3);
    expect(await titles(a)).toEqual(["B0", "B1", "B2"]);
    expect(await positions(a.id)).toEqual([0, 1, 2]);
    // Typed newest first instead: that order is kept too.
    const b = await createAuthor(s);
    for (const t of ["Third (2024)", "Second (2022)", "First (2019)"]) await createOk(b, { title: t });
    expect(await titles(b)).toEqual(["Third (2024)", "Second (2022)", "First (2019)"]);
    // After a reorder by hand, the next book is added after it and the order stands.
    const ids = ((await callApi(s, a, "GET", "/api/books")).body.books as Json[]).map((x) => x.id as string);
    await callApi(s, a, "POST", "/api/books/order", { ids: [ids[2], ids[0], ids[1]] });
    const before = await s.database.db
      .select({ id: books.id, sortOrder: books.sortOrder })
      .from(books)
      .where(eq(books.userId, a.id));
    const late = await createOk(a, { title: "B3" });
    expect(late.sortOrder).toBe(3);
    expect(await titles(a)).toEqual(["B2", "B0", "B1", "B3"]);
    const after = await s.database.db
      .select({ id: books.id, sortOrder: books.sortOrder })
      .from(books)
      .where(eq(books.userId, a.id));
    for (const row of before) expect(after.find((r) => r.id === row.id)?.sortOrder).toBe(row.sortOrder);
  });

  it("moves a book to a position, clamped to 1..total", async () => {
    const a = await authorWith(4);
    const ids = await idsOf(a);
    const before = changeCount(a.id);
    const r = await callApi(s, a, "POST", `/api/books/${ids[0]}/move`, { position: 3 });
    expect(r.status).toBe(200);
    expect((r.body.books as Json[]).map((b) => b.title)).toEqual(["B1", "B2", "B0", "B3"]);
    await expectSiteChanged(a.id, before);
    await callApi(s, a, "POST", `/api/books/${ids[3]}/move`, { position: 0 });
    expect(await titles(a)).toEqual(["B3", "B1", "B2", "B0"]);
    await callApi(s, a, "POST", `/api/books/${ids[3]}/move`, { position: 99 });
    expect(await titles(a)).toEqual(["B1", "B2", "B0", "B3"]);
    expect(await positions(a.id)).toEqual([0, 1, 2, 3]);
    expect((await callApi(s, a, "POST", `/api/books/${ids[0]}/move`, { position: 1.5 })).status).toBe(400);
  });

  it("puts books in a given order; books left out follow in their order", async () => {
    const a = await authorWith(4);
    const [b0, b1, b2, b3] = await idsOf(a);
    const r = await callApi(s, a, "POST", "/api/books/order", { ids: [b3, b1, b0, b2] });
    expect(r.status).toBe(200);
    expect(await titles(a)).toEqual(["B3", "B1", "B0", "B2"]);
    await callApi(s, a, "POST", "/api/books/order", { ids: [b2, b0] });
    expect(await titles(a)).toEqual(["B2", "B0", "B3", "B1"]);
    expect(await positions(a.id)).toEqual([0, 1, 2, 3]);
    const dup = await callApi(s, a, "POST", "/api/books/order", { ids: [b0, b0] });
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toBe("ids must not repeat a book");
    expect(b1).toBeTruthy();
  });

  it("never leaves duplicates or gaps when many moves race", async () => {
    const a = await authorWith(8);
    const ids = await idsOf(a);
    const requests = Array.from({ length: 24 }, (_, i) => {
      const id = ids[(i * 5) % ids.length] as string;
      return i % 3 === 0
        ? callApi(s, a, "POST", "/api/books/order", { ids: [...ids].sort(() => ((i * 7) % 3) - 1) })
        : callApi(s, a, "POST", `/api/books/${id}/move`, { position: ((i * 3) % 9) + 1 });
    });
    // Books are also created and deleted meanwhile.
    const extra = [create(a, { title: "Late" })];
    const results = await Promise.all([...requests, ...extra]);
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(await positions(a.id)).toEqual([...Array(9).keys()]);
    const listed = await idsOf(a);
    expect(new Set(listed).size).toBe(9);
  });

  it("refuses another author's id in an order and changes nothing", async () => {
    const a = await authorWith(2);
    const b = await authorWith(1);
    const [theirs] = await idsOf(b);
    const mine = await idsOf(a);
    const r = await callApi(s, a, "POST", "/api/books/order", { ids: [theirs, ...mine.reverse()] });
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe("Book not found");
    expect(await titles(a)).toEqual(["B0", "B1"]);
  });
});
