// The books API end to end over HTTP: create/read/update/delete with everything hanging off a
// book, one featured book, and the site marked changed on every change. The spec's validation is
// in books-validation.test.ts, the plan limit in books-plan-limit.test.ts, the order in
// books-order.test.ts.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookGenres, books, retailerLinks, reviews } from "../../../db/schema/index.ts";
import { apiClient, callApi, type Json, readJson } from "../../../testing/api-client.ts";
import {
  type BookBody,
  changeCount,
  createOk,
  expectSiteChanged,
  positions,
  s,
  startBooksServer,
  titles,
} from "../../../testing/books.ts";
import { createAuthor } from "../../../testing/users.ts";

startBooksServer();

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
} satisfies BookBody;

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

    const got = await readJson(apiClient(s, a).books[":id"].$get({ param: { id: book.id } }));
    expect(got.status).toBe(200);
    expect(got.body.book).toEqual(book);
    const list = await readJson(apiClient(s, a).books.$get());
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
    const r = await readJson(
      apiClient(s, a).books[":id"].$patch({
        param: { id: book.id },
        json: {
          subtitle: "",
          primaryPriceMinor: 1299,
          retailerLinks: [
            { id: waterstones.id, retailerName: "Waterstones UK", retailerUrl: "https://waterstones.com/x" },
            { id: bookshop.id, retailerName: "Bookshop", retailerUrl: "https://bookshop.org/a/1" },
            { retailerName: "Kobo", retailerUrl: "http://kobo.com/b" },
          ],
          genres: ["Thriller"],
          reviews: [{ ...first, reviewText: "Edited." }],
        },
      }),
    );
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
    const partial = await readJson(
      apiClient(s, a).books[":id"].$patch({ param: { id: book.id }, json: { narratorName: "Someone" } }),
    );
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
      (await readJson(apiClient(s, a).books[":id"].$get({ param: { id: book.id } }))).body.book.reviews.map(
        (r: Json) => r.reviewText,
      ),
    ).toEqual(order);
    // A review added later with the newest date goes to the top; its edit keeps every id.
    const r = await readJson(
      apiClient(s, a).books[":id"].$patch({
        param: { id: book.id },
        json: {
          reviews: [...book.reviews, { reviewText: "Newest", reviewDate: "2026-02-02" }],
        },
      }),
    );
    expect(r.body.book.reviews.map((x: Json) => x.reviewText)).toEqual(["Newest", ...order]);
    expect(r.body.book.reviews.slice(1).map((x: Json) => x.id)).toEqual(book.reviews.map((x: Json) => x.id));
  });

  it("deletes a book with its links, genres and reviews, and closes the gap in positions", async () => {
    const a = await createAuthor(s);
    const one = await createOk(a, { ...FULL, title: "One" });
    await createOk(a, { title: "Two" });
    await createOk(a, { title: "Three" });
    const before = changeCount(a.id);
    const r = await readJson(apiClient(s, a).books[":id"].$delete({ param: { id: one.id } }));
    expect(r.status).toBe(204);
    expect(await titles(a)).toEqual(["Two", "Three"]);
    expect(await positions(a.id)).toEqual([0, 1]);
    for (const t of [retailerLinks, bookGenres, reviews]) {
      expect(await s.database.db.select().from(t).where(eq(t.bookId, one.id))).toHaveLength(0);
    }
    await expectSiteChanged(a.id, before);
    expect((await readJson(apiClient(s, a).books[":id"].$get({ param: { id: one.id } }))).status).toBe(404);
    expect((await readJson(apiClient(s, a).books[":id"].$delete({ param: { id: one.id } }))).status).toBe(404);
  });

  it("answers 404 'Book not found' for ids that are not books", async () => {
    const a = await createAuthor(s);
    for (const id of ["nope", "00000000-0000-0000-0000-000000000000", "1%27%20or%201=1"]) {
      const r = await readJson(apiClient(s, a).books[":id"].$get({ param: { id } }));
      expect(r.status).toBe(404);
      expect(r.body.error.message).toBe("Book not found");
    }
  });

  it("hides and shows a book", async () => {
    const a = await createAuthor(s);
    const book = await createOk(a);
    let before = changeCount(a.id);
    const hide = await readJson(
      apiClient(s, a).books[":id"].visibility.$patch({ param: { id: book.id }, json: { visible: false } }),
    );
    expect(hide.status).toBe(200);
    expect(hide.body.book.visibilityEnabled).toBe(false);
    await expectSiteChanged(a.id, before);
    before = changeCount(a.id);
    const show = await readJson(
      apiClient(s, a).books[":id"].visibility.$patch({ param: { id: book.id }, json: { visible: true } }),
    );
    expect(show.body.book.visibilityEnabled).toBe(true);
    await expectSiteChanged(a.id, before);
    // Not a boolean on purpose: the typed client refuses to send it.
    expect((await callApi(s, a, "PATCH", `/api/books/${book.id}/visibility`, { visible: "yes" })).status).toBe(400);
  });
});

describe("featured book", () => {
  it("featuring one book unfeatures the others", async () => {
    const a = await createAuthor(s);
    const one = await createOk(a, { title: "One", isFeatured: true });
    const two = await createOk(a, { title: "Two", isFeatured: true });
    const featured = async () =>
      ((await readJson(apiClient(s, a).books.$get())).body.books as Json[])
        .filter((b) => b.isFeatured)
        .map((b) => b.title);
    expect(await featured()).toEqual(["Two"]);
    await readJson(apiClient(s, a).books[":id"].$patch({ param: { id: one.id }, json: { isFeatured: true } }));
    expect(await featured()).toEqual(["One"]);
    await readJson(apiClient(s, a).books[":id"].$patch({ param: { id: one.id }, json: { isFeatured: false } }));
    expect(await featured()).toEqual([]);
    expect(two.id).toBeTruthy();
  });

  it("stays one when several books are featured at once", async () => {
    const a = await createAuthor(s, { tier: "midi" });
    const ids: string[] = [];
    for (const t of ["A", "B", "C", "D", "E", "F"]) ids.push((await createOk(a, { title: t })).id);
    const results = await Promise.all(
      ids.map((id) => readJson(apiClient(s, a).books[":id"].$patch({ param: { id }, json: { isFeatured: true } }))),
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
    expect((await readJson(apiClient(s, b).books[":id"].$get({ param: { id: theirs.id } }))).body.book.isFeatured).toBe(
      true,
    );
  });
});
