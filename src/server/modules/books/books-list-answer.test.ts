// The dashboard's list reads its books through its own prepared statement (fewer columns than the
// book's own read): each entry must be, byte for byte, the book as GET /api/books/:id shows it
// without what hangs off it — every field, in the same order, with the same values.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { books } from "../../../db/schema/index.ts";
import { apiClient, type Json, readJson } from "../../../testing/api-client.ts";
import { createOk, s, startBooksServer } from "../../../testing/books.ts";
import { createAuthor } from "../../../testing/users.ts";

startBooksServer();

describe("GET /api/books", () => {
  it("answers each book exactly as the book's own answer does", async () => {
    const a = await createAuthor(s, { tier: "midi" });
    const full = await createOk(a, {
      title: "Every Field",
      subtitle: "A subtitle",
      isbn: "9780306406157",
      shortBlurb: "<p>Blurb</p>",
      releaseDate: "2024-03-01",
      seriesName: "The Series",
      orderInSeries: 2,
      primaryPriceMinor: 799,
      primaryCurrency: "USD",
      formatPaperback: true,
      formatAudiobook: true,
      isFeatured: true,
      userRating: 4.5,
      showUserRating: true,
      promoBadgeEnabled: true,
      promoBadgeText: "Sale",
      reviewSnippet: "Gripping",
      audiobookEnabled: true,
      narratorName: "N. Arrator",
      audioSampleUrl: "https://example.com/sample.mp3",
    });
    const plain = await createOk(a, { title: "Plain" });
    const variants = [
      { width: 200, height: 300, url: "/uploads/c-200.webp" },
      { width: 400, height: 600, url: "/uploads/c-400.webp" },
    ];
    await s.database.db
      .update(books)
      .set({ coverImageUrl: "/uploads/c-400.webp", coverImageVariants: variants as never })
      .where(eq(books.id, full.id as string));
    await s.database.db
      .update(books)
      .set({ visibilityEnabled: false, hiddenByPlan: true })
      .where(eq(books.id, plain.id as string));

    const list = await readJson(apiClient(s, a).books.$get());
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const listed = list.body.books as Json[];
    expect(listed.map((b) => b.title)).toEqual(["Every Field", "Plain"]);
    expect(listed[0]?.coverImageVariants).toEqual(variants);
    expect(listed[1]?.hiddenByPlan).toBe(true);
    for (const entry of listed) {
      const one = await readJson(apiClient(s, a).books[":id"].$get({ param: { id: entry.id as string } }));
      const { retailerLinks: _l, genres: _g, reviews: _r, ...book } = one.body.book as Json;
      expect(JSON.stringify(entry)).toBe(JSON.stringify(book));
    }
  });
});
