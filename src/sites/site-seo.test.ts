// What search engines and social cards read from a public site, and what the plan's book limit shows.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { blogPosts, bookGenres, books, retailerLinks, subscriptions } from "../db/schema/index.ts";
import { markSiteChanged } from "../server/modules/sites/site-changes.service.ts";
import { app, hit, jsonLd, makeAuthor, meta, s, startSiteServer } from "../testing/sites.ts";

startSiteServer();

describe("SEO", () => {
  it("describes a book for search engines and social cards: canonical, OG/Twitter with the cover, JSON-LD Book", async () => {
    const id = await makeAuthor("seobook");
    const db = s.database.db;
    const origin = `http://seobook.localhost:${s.port}`;
    const variants = [200, 400, 800].map((w) => ({ width: w, height: w * 1.5, url: `/uploads/c/seo-${w}.webp` }));
    const [book] = await db
      .insert(books)
      .values({
        userId: id,
        title: "The Salt Road",
        slug: "the-salt-road",
        subtitle: "A Novel",
        author: "Author seobook",
        isbn: "9780306406157",
        shortBlurb: "<p>Two sisters walk the <b>salt road</b> to the sea.</p>",
        releaseDate: "2024-05-01",
        seriesName: "Coast Roads",
        orderInSeries: 3,
        primaryPriceMinor: 1299,
        primaryCurrency: "USD",
        formatEbook: true,
        formatPaperback: true,
        formatHardback: false,
        formatAudiobook: false,
        coverImageUrl: variants[2]?.url,
        coverImageVariants: variants,
      })
      .returning({ id: books.id });
    const bookId = book?.id ?? "";
    await db.insert(bookGenres).values({ bookId, genreName: "Literary Fiction" });
    await db.insert(retailerLinks).values({
      bookId,
      retailerName: "Salt Shop",
      retailerUrl: "https://amazon.example/salt-road",
    });
    const page = await hit("seobook.localhost", "/book/the-salt-road");
    expect(page.status).toBe(200);
    const html = page.body;
    expect(html).toContain("<title>The Salt Road | Site seobook</title>");
    expect(html).toContain(`<link rel="canonical" href="${origin}/book/the-salt-road"/>`);
    expect(html).not.toContain('name="robots"');
    expect(meta(html, "name", "description")).toBe("Two sisters walk the salt road to the sea.");
    expect(meta(html, "property", "og:type")).toBe("book");
    expect(meta(html, "property", "og:title")).toBe("The Salt Road | Site seobook");
    expect(meta(html, "property", "og:url")).toBe(`${origin}/book/the-salt-road`);
    expect(meta(html, "property", "og:image")).toBe(`${origin}/uploads/c/seo-800.webp`);
    expect(meta(html, "name", "twitter:card")).toBe("summary_large_image");
    expect(meta(html, "name", "twitter:image")).toBe(`${origin}/uploads/c/seo-800.webp`);

    const ld = jsonLd(html).find((j) => j["@type"] === "Book");
    expect(ld).toMatchObject({
      "@context": "https://schema.org",
      name: "The Salt Road",
      isbn: "9780306406157",
      datePublished: "2024-05-01",
      image: `${origin}/uploads/c/seo-800.webp`,
      url: `${origin}/book/the-salt-road`,
      genre: ["Literary Fiction"],
      author: { "@type": "Person", name: "Author seobook" },
      isPartOf: { "@type": "BookSeries", name: "Coast Roads", url: `${origin}/series/coast-roads` },
      position: 3,
      offers: {
        "@type": "Offer",
        price: "12.99",
        priceCurrency: "USD",
        availability: "https://schema.org/InStock",
        url: "https://amazon.example/salt-road",
      },
    });
    // The breadcrumb readers see, step for step, with the addresses its links go to.
    const crumbs = [
      ...(/<nav class="crumbs"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "").matchAll(/<li[^>]*>(.*?)<\/li>/g),
    ].map((m) => {
      const link = /<a href="([^"]+)">([^<]+)<\/a>/.exec(m[1] ?? "");
      return link ? { name: link[2], item: origin + link[1] } : { name: m[1], item: `${origin}/book/the-salt-road` };
    });
    expect(crumbs.map((c) => c.name)).toEqual(["Home", "Books", "The Salt Road"]);
    expect(jsonLd(html).find((j) => j["@type"] === "BreadcrumbList")).toEqual({
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: crumbs.map((c, i) => ({ "@type": "ListItem", position: i + 1, ...c })),
    });
    expect(ld?.bookFormat).toEqual(["https://schema.org/EBook", "https://schema.org/Paperback"]);

    // The cover: intrinsic size, responsive sources, fetched first on its own page.
    const img = /<img [^>]*alt="Cover of The Salt Road"[^>]*>/.exec(html)?.[0] ?? "";
    expect(img).toContain('width="400"');
    expect(img).toContain('height="600"');
    expect(img).toContain(
      'srcSet="/uploads/c/seo-200.webp 200w, /uploads/c/seo-400.webp 400w, /uploads/c/seo-800.webp 800w"',
    );
    expect(img).toContain("sizes=");
    expect(img).toContain('fetchPriority="high"');
    expect(img).not.toContain('loading="lazy"');
  });

  it("marks up the author as a Person and posts as BlogPosting, and loads lower covers lazily", async () => {
    const id = await makeAuthor("seoauthor");
    const db = s.database.db;
    await db.insert(blogPosts).values({
      userId: id,
      title: "Launch day",
      slug: "launch-day",
      content: "<p>The new book is out today.</p>",
      category: "books",
    });
    await db.insert(books).values(
      [0, 1, 2, 3].map((i) => ({
        userId: id,
        title: `Volume ${i + 1}`,
        slug: `volume-${i + 1}`,
        author: "Author seoauthor",
        sortOrder: i,
        coverImageVariants: [200, 400].map((w) => ({ width: w, height: w * 1.5, url: `/uploads/v${i}-${w}.webp` })),
      })),
    );
    const origin = `http://seoauthor.localhost:${s.port}`;
    const about = await hit("seoauthor.localhost", "/about");
    expect(jsonLd(about.body).find((j) => j["@type"] === "Person")).toMatchObject({
      name: "Author seoauthor",
      url: `${origin}/`,
      description: "Plain bio",
      sameAs: ["https://facebook.com/x"],
    });
    const blog = await hit("seoauthor.localhost", "/blog");
    const post = jsonLd(blog.body).find((j) => j["@type"] === "BlogPosting");
    expect(post).toMatchObject({
      headline: "Launch day",
      description: "The new book is out today.",
      author: { "@type": "Person", name: "Author seoauthor" },
      articleSection: "books",
    });
    expect(post?.url).toBe(`${origin}/blog/launch-day`);
    expect(blog.body).toContain(`<link rel="alternate" type="application/rss+xml"`);

    const list = await hit("seoauthor.localhost", "/books");
    const imgs = list.body.match(/<img [^>]*>/g) ?? [];
    expect(imgs).toHaveLength(4);
    for (const img of imgs) {
      expect(img).toMatch(/width="\d+" height="\d+"/);
      expect(img).toContain("srcSet=");
    }
    // The first row is above the fold on a phone; the rest waits until it is scrolled to.
    expect(imgs.map((i) => i.includes('loading="lazy"'))).toEqual([false, false, true, true]);
  });

  it("words a pre-order as one everywhere: Out on its date, not published, not the latest book, PreOrder in JSON-LD", async () => {
    const id = await makeAuthor("preorders");
    const db = s.database.db;
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const coming = day(40);
    const readable = new Date(`${coming}T00:00:00Z`).toLocaleDateString("en-GB", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    });
    const [out, next] = await db
      .insert(books)
      .values([
        { userId: id, title: "Out Now", slug: "out-now", author: "A", releaseDate: day(-400), sortOrder: 0 },
        {
          userId: id,
          title: "Coming Next",
          slug: "coming-next",
          author: "A",
          releaseDate: coming,
          sortOrder: 1,
          primaryPriceMinor: 499,
          primaryCurrency: "GBP",
        },
      ])
      .returning({ id: books.id, slug: books.slug });
    await db.insert(retailerLinks).values({
      bookId: next?.id ?? "",
      retailerName: "Amazon.co.uk",
      retailerUrl: "https://www.amazon.co.uk/dp/B0COMINGNX",
      storefront: "amazon-uk",
    });

    const page = (await hit("preorders.localhost", "/book/coming-next")).body;
    expect(page).toMatch(new RegExp(`Out on (<!-- -->)?<time dateTime="${coming}">${readable}</time>`));
    expect(page).not.toMatch(/Published (<!-- -->)?<time/);
    expect(page).toMatch(/Pre-order From (<!-- -->)?Amazon.co.uk/);
    const offer = jsonLd(page).find((j) => j["@type"] === "Book")?.offers;
    expect(offer).toEqual({
      "@type": "Offer",
      price: "4.99",
      priceCurrency: "GBP",
      availability: "https://schema.org/PreOrder",
      availabilityStarts: coming,
      url: "https://www.amazon.co.uk/dp/B0COMINGNX",
    });

    const list = (await hit("preorders.localhost", "/books")).body;
    expect(list).toContain("Explore my collection of 1 published work, and 1 book on pre-order.");
    expect(list).toMatch(new RegExp(`Out on (<!-- -->)?<time dateTime="${coming}">${readable}</time>`));
    const home = (await hit("preorders.localhost", "/")).body;
    expect(/<h2 id="spot-title">([^<]*)</.exec(home)?.[1]).toBe("Out Now");
    expect(home).toContain("Latest book");
    expect(home).toContain(`href="/book/${out?.slug}"`);

    // Only the pre-order visible: it is shown as coming, not as the latest book.
    await db
      .update(books)
      .set({ visibilityEnabled: false })
      .where(eq(books.id, out?.id ?? ""));
    await markSiteChanged(db, id);
    const soon = (await hit("preorders.localhost", "/")).body;
    expect(/<h2 id="spot-title">([^<]*)</.exec(soon)?.[1]).toBe("Coming Next");
    expect(soon).toContain("Coming soon");
    expect(soon).not.toContain("Latest book");
    expect(soon).toMatch(new RegExp(`Out on (<!-- -->)?<time dateTime="${coming}">${readable}</time>`));
    expect((await hit("preorders.localhost", "/books")).body).toContain("Coming soon: 1 book on pre-order.");
  });

  it("gives a blog post with a picture its image in BlogPosting", async () => {
    const id = await makeAuthor("postimage");
    await s.database.db.insert(blogPosts).values([
      {
        userId: id,
        title: "With a picture",
        slug: "with-picture",
        content: '<p>Look:</p><img src="/uploads/p/desk.webp" alt="My desk">',
        category: "books",
      },
      { userId: id, title: "Words only", slug: "words-only", content: "<p>No picture.</p>", category: "books" },
    ]);
    const origin = `http://postimage.localhost:${s.port}`;
    const ldOf = async (slug: string) =>
      jsonLd((await hit("postimage.localhost", `/blog/${slug}`)).body).find((j) => j["@type"] === "BlogPosting");
    expect((await ldOf("with-picture"))?.image).toBe(`${origin}/uploads/p/desk.webp`);
    expect(await ldOf("words-only")).not.toHaveProperty("image");
  });

  it("keeps previews out of search results; the demo points search at its own host", async () => {
    await makeAuthor("hiddenpreview");
    const robots = /<meta name="robots" content="noindex"\/>/;
    expect((await app("/author/hiddenpreview")).body).toMatch(robots);
    expect((await app("/demo")).body).not.toMatch(robots);
    expect((await hit("hiddenpreview.localhost", "/")).body).not.toMatch(robots);
    expect((await hit("hiddenpreview.localhost", "/robots.txt")).body).toContain("Allow: /");
  });
});

describe("the plan's book limit", () => {
  it("shows only the first books by position that the plan allows; the rest are not public", async () => {
    const id = await makeAuthor("overlimit");
    const db = s.database.db;
    await db.insert(subscriptions).values({ userId: id, tier: "mini", status: "active" });
    // Inserted out of order: the public order is the position, not the insertion.
    const order = [6, 2, 0, 5, 3, 1, 4];
    const rows = await db
      .insert(books)
      .values(
        order.map((pos) => ({
          userId: id,
          title: `Position ${pos}`,
          slug: `position-${pos}`,
          author: "A",
          sortOrder: pos,
        })),
      )
      .returning({ slug: books.slug, sortOrder: books.sortOrder });
    // A hidden book takes no place: the mini plan still shows five.
    await db.insert(books).values({
      userId: id,
      title: "Hidden draft",
      slug: "hidden-draft",
      author: "A",
      sortOrder: 1,
      visibilityEnabled: false,
    });
    const byPos = new Map(rows.map((r) => [r.sortOrder, r.slug]));

    const list = await hit("overlimit.localhost", "/books");
    const titles = [...list.body.matchAll(/<h2>(Position \d)<\/h2>/g)].map((m) => m[1]);
    expect(titles).toEqual(["Position 0", "Position 1", "Position 2", "Position 3", "Position 4"]);
    expect(list.body).toContain("Explore my collection of 5 published works.");
    expect(list.body).not.toContain("Hidden draft");
    for (const pos of [0, 4]) expect((await hit("overlimit.localhost", `/book/${byPos.get(pos)}`)).status).toBe(200);
    for (const pos of [5, 6]) {
      const r = await hit("overlimit.localhost", `/book/${byPos.get(pos)}`);
      expect(r.status).toBe(404);
      expect(r.body).toContain("Book Not Found");
      expect(r.body).not.toContain(`Position ${pos}`);
    }
    const sitemap = (await hit("overlimit.localhost", "/sitemap.xml")).body;
    expect(sitemap).toContain(`/book/${byPos.get(4)}<`);
    expect(sitemap).not.toContain(`/book/${byPos.get(5)}<`);

    // An upgrade shows them again, at once.
    await db.update(subscriptions).set({ tier: "midi" }).where(eq(subscriptions.userId, id));
    await markSiteChanged(db, id);
    expect((await hit("overlimit.localhost", `/book/${byPos.get(6)}`)).status).toBe(200);
    expect((await hit("overlimit.localhost", "/books")).body).toContain("Explore my collection of 7 published works.");
  });
});
