// The books API's validation: the spec's rules and messages on create and update, and what a
// valid value is saved as (prices, ISBNs, promo text, storefronts, genres).
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { books } from "../../../db/schema/index.ts";
import { apiClient, type Json, readJson } from "../../../testing/api-client.ts";
import { create, createOk, s, startBooksServer } from "../../../testing/books.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";

startBooksServer();

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
      const u = await readJson(apiClient(s, a).books[":id"].$patch({ param: { id: bookId }, json: over }));
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
    expect(
      (await readJson(apiClient(s, a).books[":id"].$patch({ param: { id: bookId }, json: {} }))).body.error.message,
    ).toBe("Nothing to update");
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
    const on = await readJson(
      apiClient(s, a).books[":id"].$patch({
        param: { id: b.id },
        json: { promoBadgeEnabled: true, promoBadgeText: "Sale" },
      }),
    );
    expect(on.body.book.promoBadgeText).toBe("Sale");
    const off = await readJson(
      apiClient(s, a).books[":id"].$patch({ param: { id: b.id }, json: { promoBadgeEnabled: false } }),
    );
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
    const put = await readJson(
      apiClient(s, a).books[":id"]["retailer-links"].$put({
        param: { id: b.id },
        json: {
          retailerLinks: [
            { id: b.retailerLinks[0].id, retailerName: "Amazon", retailerUrl: "https://amazon.co.uk/dp/X1" },
          ],
        },
      }),
    );
    expect(put.body.retailerLinks).toEqual([
      expect.objectContaining({ storefront: "amazon-uk", priceMinor: null, currency: null }),
    ]);
  });

  it("dedupes genres whatever their case and drops empty ones", async () => {
    const b = await createOk(a, { genres: [" Sci  Fi ", "sci fi", "", "Fantasy"] });
    expect(b.genres).toEqual(["Sci Fi", "Fantasy"]);
  });
});
