// A series on the public site through real requests: its page, the book page's series part, and
// the books the plan shows.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { books } from "../db/schema/index.ts";
import { markSiteChanged } from "../server/modules/sites/site-changes.service.ts";
import { bookSlugOf } from "../shared/book-path.ts";
import { hit, jsonLd, makeAuthor, s, startSiteServer } from "../testing/sites.ts";

startSiteServer();

describe("series", () => {
  it("lists a series' books in reading order, and each book says where it stands and what comes next", async () => {
    const id = await makeAuthor("seriesa");
    const db = s.database.db;
    const origin = `http://seriesa.localhost:${s.port}`;
    // Site order (sortOrder) is not reading order; a hidden book and another series stay out.
    const rows = await db
      .insert(books)
      .values(
        [
          { userId: id, title: "Ember", author: "A", seriesName: "The Hearth Cycle", orderInSeries: 3, sortOrder: 0 },
          {
            userId: id,
            title: "Kindling",
            author: "A",
            seriesName: "The Hearth Cycle",
            orderInSeries: 1,
            sortOrder: 1,
          },
          { userId: id, title: "Ash", author: "A", seriesName: "the hearth cycle ", orderInSeries: 4, sortOrder: 2 },
          {
            userId: id,
            title: "Secret",
            author: "A",
            seriesName: "The Hearth Cycle",
            orderInSeries: 2,
            sortOrder: 3,
            visibilityEnabled: false,
          },
          { userId: id, title: "Flint", author: "A", seriesName: "The Hearth Cycle", orderInSeries: 2, sortOrder: 4 },
          { userId: id, title: "Alone", author: "A", seriesName: "Standalone Tales", orderInSeries: 1, sortOrder: 5 },
        ].map((b) => ({ ...b, slug: bookSlugOf(b.title) })),
      )
      .returning({ id: books.id, title: books.title });
    expect(rows).toHaveLength(6);

    const page = await hit("seriesa.localhost", "/series/the-hearth-cycle");
    expect(page.status).toBe(200);
    expect(page.body).toContain("<title>The Hearth Cycle | Site seriesa</title>");
    const titles = [...page.body.matchAll(/<h2>([^<]+)<\/h2>/g)].map((m) => m[1]);
    expect(titles).toEqual(["Kindling", "Flint", "Ember", "Ash"]);
    expect(page.body.match(/Start here/g)).toHaveLength(1);
    expect(page.body.indexOf("Start here")).toBeLessThan(page.body.indexOf("<h2>Kindling"));
    expect(jsonLd(page.body).find((j) => j["@type"] === "BookSeries")).toEqual({
      "@context": "https://schema.org",
      "@type": "BookSeries",
      name: "The Hearth Cycle",
      url: `${origin}/series/the-hearth-cycle`,
      author: { "@type": "Person", name: "Author seriesa" },
      hasPart: [
        { "@type": "Book", name: "Kindling", url: `${origin}/book/kindling`, position: 1 },
        { "@type": "Book", name: "Flint", url: `${origin}/book/flint`, position: 2 },
        { "@type": "Book", name: "Ember", url: `${origin}/book/ember`, position: 3 },
        { "@type": "Book", name: "Ash", url: `${origin}/book/ash`, position: 4 },
      ],
    });

    const flint = await hit("seriesa.localhost", `/book/flint`);
    expect(flint.body).toContain('Book 2 of 4 in <a href="/series/the-hearth-cycle">The Hearth Cycle</a>');
    expect(flint.body).toContain(`Next in The Hearth Cycle: <a href="/book/ember">Ember</a>`);
    const ash = await hit("seriesa.localhost", `/book/ash`);
    expect(ash.body).toContain("Book 4 of 4 in");
    expect(ash.body).not.toContain("Next in");

    // In the sitemap; an address no visible book names is a 404.
    const sitemap = await hit("seriesa.localhost", "/sitemap.xml");
    expect(sitemap.body).toContain(`<loc>${origin}/series/the-hearth-cycle</loc>`);
    expect(sitemap.body).toContain(`<loc>${origin}/series/standalone-tales</loc>`);
    expect((await hit("seriesa.localhost", "/series/nothing-here")).status).toBe(404);
    expect((await hit("seriesa.localhost", "/series/")).status).toBe(404);
  });

  it("counts in a book's series only the books the plan shows, hidden ones left out", async () => {
    // No plan chosen: five books are public. Reading order puts the one beyond the limit first.
    const id = await makeAuthor("serieslimit");
    const db = s.database.db;
    const rows = [
      { title: "Road One", orderInSeries: 2, sortOrder: 0 },
      { title: "Road Two", orderInSeries: 3, sortOrder: 1 },
      { title: "Road Hidden", orderInSeries: 4, sortOrder: 2, visibilityEnabled: false },
      { title: "Road Three", orderInSeries: 5, sortOrder: 3 },
      { title: "Road Four", orderInSeries: 6, sortOrder: 4 },
      { title: "Road Five", orderInSeries: 7, sortOrder: 5 },
      { title: "Road Beyond", orderInSeries: 1, sortOrder: 6 },
    ];
    await db
      .insert(books)
      .values(rows.map((b) => ({ userId: id, author: "A", seriesName: "Long Road", slug: bookSlugOf(b.title), ...b })));
    const first = await hit("serieslimit.localhost", "/book/road-one");
    expect(first.body).toContain('Book 1 of 5 in <a href="/series/long-road">Long Road</a>');
    expect(first.body).toContain('Next in Long Road: <a href="/book/road-two">Road Two</a>');
    const last = await hit("serieslimit.localhost", "/book/road-five");
    expect(last.body).toContain("Book 5 of 5 in");
    expect(last.body).not.toContain("Next in");
    expect((await hit("serieslimit.localhost", "/book/road-beyond")).status).toBe(404);
  });

  it("shows a change of reading order at once", async () => {
    const id = await makeAuthor("seriesb");
    const db = s.database.db;
    const rows = await db
      .insert(books)
      .values([
        { userId: id, title: "First", slug: "first", author: "A", seriesName: "Pair", orderInSeries: 1 },
        { userId: id, title: "Second", slug: "second", author: "A", seriesName: "Pair", orderInSeries: 2 },
      ])
      .returning({ id: books.id, title: books.title });
    const order = async () =>
      [...(await hit("seriesb.localhost", "/series/pair")).body.matchAll(/<h2>([^<]+)<\/h2>/g)].map((m) => m[1]);
    expect(await order()).toEqual(["First", "Second"]);
    const idOf = (t: string) => rows.find((r) => r.title === t)?.id ?? "";
    await db.transaction(async (tx) => {
      await tx
        .update(books)
        .set({ orderInSeries: 1 })
        .where(eq(books.id, idOf("Second")));
      await tx
        .update(books)
        .set({ orderInSeries: 2 })
        .where(eq(books.id, idOf("First")));
      await markSiteChanged(tx, id);
    });
    expect(await order()).toEqual(["Second", "First"]);
  });
});
