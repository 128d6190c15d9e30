import { describe, expect, it } from "vitest";
import { bookFormSchema, EMPTY_BOOK_FORM, fromBook, PRICE_TYPING, toBookInput } from "./book-form-values.ts";
import type { BookDetail } from "./books-api.ts";

const issues = (values: unknown) => {
  const r = bookFormSchema.safeParse(values);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("book form values", () => {
  it("requires a trimmed title and author, in the spec's words", () => {
    expect(issues({ ...EMPTY_BOOK_FORM, title: "   ", author: "" })).toMatchObject({
      title: "Book title is required",
      author: "Author name is required",
    });
    expect(issues({ ...EMPTY_BOOK_FORM, title: "A", author: "B" })).toEqual({});
  });

  it("has the spec's defaults: ebook on, visible, GBP, not featured, rating toggles off", () => {
    expect(EMPTY_BOOK_FORM).toMatchObject({
      formatEbook: true,
      formatPaperback: false,
      visibilityEnabled: true,
      isFeatured: false,
      primaryCurrency: "GBP",
      showUserRating: false,
      amazonRatingEnabled: false,
    });
  });

  it("lets only digits and one decimal point through while typing a price", () => {
    for (const ok of ["", "8", "8.", "8.99", ".5"]) expect(PRICE_TYPING.test(ok)).toBe(true);
    for (const bad of ["8a", "8.9.9", "-1", "1,5", " 1"]) expect(PRICE_TYPING.test(bad)).toBe(false);
  });

  it("checks series number, star rating, URLs and promo text", () => {
    const base = { ...EMPTY_BOOK_FORM, title: "T", author: "A" };
    expect(issues({ ...base, orderInSeries: "0" }).orderInSeries).toMatch(/at least 1/);
    expect(issues({ ...base, orderInSeries: "1.5" }).orderInSeries).toMatch(/whole number/);
    expect(issues({ ...base, userRating: "5.1" }).userRating).toBe("Star rating must be between 0 and 5");
    expect(issues({ ...base, isbn: "978-0-306-40615-8" }).isbn).toBe("Please enter a valid ISBN-10 or ISBN-13");
    expect(issues({ ...base, isbn: "978-0-306-40615-7" }).isbn).toBeUndefined();
    expect(issues({ ...base, isbn: "0-8044-2957-X" }).isbn).toBeUndefined();
    expect(issues({ ...base, audioSampleUrl: "javascript:alert(1)" }).audioSampleUrl).toMatch(/http/);
    expect(issues({ ...base, promoBadgeEnabled: true }).promoBadgeText).toMatch(/Promo badge text/);
    expect(
      issues({ ...base, retailerLinks: [{ retailerName: "Shop", retailerUrl: "ftp://x" }] })[
        "retailerLinks.0.retailerUrl"
      ],
    ).toBe("Retailer URL must start with http:// or https://");
  });

  it("turns the form into the API body: empty text → null, price → minor units, promo text only with the badge", () => {
    const input = toBookInput({
      ...EMPTY_BOOK_FORM,
      title: "  The Keeper ",
      author: " Jane ",
      subtitle: "  ",
      shortBlurb: "<p></p>",
      price: "8.999",
      userRating: "4.25",
      orderInSeries: "2",
      promoBadgeText: "stale",
      genres: ["Mystery"],
      reviews: [{ rating: "", reviewerName: " ", reviewText: " Great ", reviewDate: "" }],
    });
    expect(input).toMatchObject({
      title: "The Keeper",
      author: "Jane",
      subtitle: null,
      shortBlurb: null,
      primaryPriceMinor: 900,
      userRating: 4.3,
      orderInSeries: 2,
      promoBadgeText: null,
      genres: ["Mystery"],
      reviews: [{ rating: null, reviewerName: null, reviewText: "Great", reviewDate: null }],
    });
    expect(toBookInput({ ...EMPTY_BOOK_FORM, title: "T", author: "A", price: "" }).primaryPriceMinor).toBeNull();
    // Half-up by the typed digits (12.345 * 100 is 1234.4999… in floating point).
    for (const [typed, minor] of [
      ["12.345", 1235],
      ["1.005", 101],
      ["0.1", 10],
      [".5", 50],
      ["7.", 700],
      [".", null],
    ] as const) {
      expect(toBookInput({ ...EMPTY_BOOK_FORM, title: "T", author: "A", price: typed }).primaryPriceMinor).toBe(minor);
    }
  });

  it("checks each store link as the server does, and sends its store and price", () => {
    const link = (over: Record<string, string>) => ({
      ...EMPTY_BOOK_FORM,
      title: "A",
      author: "B",
      retailerLinks: [{ retailerName: "Shop", retailerUrl: "https://www.amazon.com/dp/B0SALTROAD", ...over }],
    });
    expect(issues(link({ storefront: "amazon-uk" }))).toEqual({
      "retailerLinks.0.retailerUrl": "This link goes to Amazon.com, not Amazon.co.uk",
    });
    expect(issues(link({ retailerUrl: "https://shop.example/x", price: "4.99" }))).toEqual({
      "retailerLinks.0.currency": "Please choose the currency of the price",
    });
    expect(issues(link({ price: "4.9.9" }))).toEqual({ "retailerLinks.0.price": "Please enter a valid price" });
    expect(issues(link({ storefront: "amazon-us", price: "4.99" }))).toEqual({});
    const body = toBookInput(link({ storefront: "amazon-us", price: "4.995", currency: "" }) as never);
    expect(body.retailerLinks).toEqual([
      {
        retailerName: "Shop",
        retailerUrl: "https://www.amazon.com/dp/B0SALTROAD",
        storefront: "amazon-us",
        priceMinor: 500,
        currency: null,
      },
    ]);
    const other = toBookInput(link({ retailerUrl: "https://shop.example/x", storefront: "", price: "" }) as never);
    expect(other.retailerLinks?.[0]).toMatchObject({ storefront: null, priceMinor: null, currency: null });
  });

  it("round-trips a stored book through the form", () => {
    const input = toBookInput({ ...EMPTY_BOOK_FORM, title: "T", author: "A", price: "12.5", seriesName: "S" });
    const book: BookDetail = {
      ...input,
      id: "x",
      slug: "t",
      coverImageUrl: null,
      coverImageVariants: null,
      format: "Multiple",
      sortOrder: 0,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      hiddenByPlan: false,
      overLimit: false,
      retailerLinks: [],
      reviews: [],
    };
    expect(toBookInput(fromBook(book))).toEqual(input);
  });
});
