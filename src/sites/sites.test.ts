// The public site's pages through real requests: the demo author on its subdomain, the demo and
// previews on the app host. Series: site-series.test.ts; hosts and toggles: site-hosts.test.ts; forms: site-forms.test.ts;
// SEO and the plan's limit: site-seo.test.ts.
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { books, retailerLinks, reviews, websites } from "../db/schema/index.ts";
import { markSiteChanged } from "../server/modules/sites/site-changes.service.ts";
import { bookSlugOf } from "../shared/book-path.ts";
import { app, demo, demoBookId, hit, makeAuthor, s, startSiteServer } from "../testing/sites.ts";

startSiteServer();

describe("public author site pages (demo author on its subdomain)", () => {
  it("shows a book's reviews newest by their date first, undated ones last, whatever order they were entered in", async () => {
    const id = await makeAuthor("revieworder");
    const db = s.database.db;
    const [book] = await db
      .insert(books)
      .values({ userId: id, title: "Dated Reviews", slug: "dated-reviews", author: "A" })
      .returning({ id: books.id });
    const bookId = book?.id ?? "";
    // Entered one after another (created_at rising), dates out of order.
    const entered = [
      { reviewText: "Review from 2021", reviewDate: "2021-05-01" },
      { reviewText: "Review with no date", reviewDate: null },
      { reviewText: "Review from 2024", reviewDate: "2024-03-10" },
      { reviewText: "Review from 2019", reviewDate: "2019-11-20" },
    ];
    for (const [i, r] of entered.entries()) {
      await db.insert(reviews).values({ bookId, ...r, createdAt: new Date(Date.UTC(2025, 0, 1 + i)) });
    }
    const page = await hit("revieworder.localhost", "/book/dated-reviews");
    expect(page.status).toBe(200);
    const shown = [...page.body.matchAll(/<p>(Review [^<]+)<\/p>/g)].map((m) => m[1]);
    const expected = [...entered]
      .sort((a, b) => (b.reviewDate ?? "").localeCompare(a.reviewDate ?? ""))
      .map((r) => r.reviewText);
    expect(expected[0]).toBe("Review from 2024");
    expect(shown).toEqual(expected);
  });

  it("opens the home page on the featured book, with its buy button, and the next few books", async () => {
    const id = await makeAuthor("shelfhome");
    const db = s.database.db;
    const add = (title: string, extra: Partial<typeof books.$inferInsert> = {}) =>
      db
        .insert(books)
        .values({ userId: id, title, slug: bookSlugOf(title), author: "A", ...extra })
        .returning({ id: books.id, slug: books.slug });
    await add("Old One", { sortOrder: 0, releaseDate: "2019-01-01" });
    const [newest] = await add("Newest", { sortOrder: 1, releaseDate: "2024-05-01", shortBlurb: "<p>Fresh out.</p>" });
    await add("Middle", { sortOrder: 2, releaseDate: "2021-01-01" });
    await add("Hidden", { sortOrder: 3, visibilityEnabled: false });
    await add("Fourth", { sortOrder: 4 });
    await add("Fifth", { sortOrder: 5 });
    await markSiteChanged(db, id);
    const titleOf = (html: string) => /id="spot-title">([^<]*)</.exec(html)?.[1];
    const shelf = (html: string) =>
      [...(/<section class="wrap shelf"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "").matchAll(/class="t">([^<]*)</g)].map(
        (m) => m[1],
      );

    // No featured book: the latest released one, then the rest in the author's order.
    let home = (await hit("shelfhome.localhost", "/")).body;
    expect(titleOf(home)).toBe("Newest");
    expect(home).toContain("Latest book");
    expect(home).toContain("Fresh out.");
    expect(home).toContain(`href="/book/${newest?.slug}"`);
    expect(shelf(home)).toEqual(["Old One", "Middle", "Fourth"]);
    expect(home).toContain("All 5 books");
    expect(home).not.toContain("Hidden");

    // A featured book takes the spotlight, with its first store link (through the site's buy route).
    const [fifth] = await db
      .update(books)
      .set({ isFeatured: true })
      .where(eq(books.title, "Fifth"))
      .returning({ id: books.id, slug: books.slug });
    const [amazonLink] = await db
      .insert(retailerLinks)
      .values({
        bookId: fifth?.id ?? "",
        retailerName: "Amazon.co.uk",
        retailerUrl: "https://www.amazon.co.uk/dp/B000TEST01",
        storefront: "amazon-uk",
      })
      .returning({ id: retailerLinks.id });
    await markSiteChanged(db, id);
    home = (await hit("shelfhome.localhost", "/")).body;
    expect(titleOf(home)).toBe("Fifth");
    expect(home).toContain("Featured book");
    const buyPath = `/book/${fifth?.slug}/buy/${amazonLink?.id}`;
    expect(home).toMatch(new RegExp(`<a class="btn" href="${buyPath}"[^>]*>.*Buy From (<!-- -->)?Amazon.co.uk`));
    expect((await hit("shelfhome.localhost", buyPath)).headers.location).toBe("https://www.amazon.co.uk/dp/B000TEST01");
    expect(shelf(home)).toEqual(["Old One", "Newest", "Middle"]);

    // Books switched off: no books on the home page either.
    await db.update(websites).set({ booksEnabled: false }).where(eq(websites.userId, id));
    await markSiteChanged(db, id);
    home = (await hit("shelfhome.localhost", "/")).body;
    expect(home).not.toContain("spot-title");
    expect(home).not.toContain("More books");
  });

  it("renders home, books, book, about, blog, newsletter, contact and privacy", async () => {
    const home = await demo("/");
    expect(home.status).toBe(200);
    expect(home.body).toContain("Eleanor Penrose");
    expect(home.body).toContain("View Books");
    expect(home.body).toContain("About Me");
    expect(home.body).toContain("New readers often start with");
    // The demo opens on its featured book and shows the others.
    expect(home.body).toContain("Featured book");
    expect(home.body).toContain("The Lighthouse Keeper&#x27;s Daughter");
    expect(home.body).toContain("More books");
    expect(home.body).toContain('"@type":"Person"');

    const list = await demo("/books");
    expect(list.status).toBe(200);
    expect(list.body).toContain("Explore my collection of 4 published works.");
    expect(list.body).toContain("Featured");
    expect(list.body).toContain("Prices From");
    expect(list.body).toContain("£8.99");
    expect(list.body).toContain("View Details");
    expect(list.body).toMatch(/srcSet|srcset/);
    expect(list.body).toContain('loading="lazy"');

    const book = await demo("/book/tides-of-silence");
    expect(book.status).toBe(200);
    expect(book.body).toContain("Tides of Silence");
    expect(book.body).toContain('Book 2 of 2 in <a href="/series/harbour-lights">Harbour Lights</a>');
    expect(book.body).toContain("About This Book");
    expect(book.body).toContain('"@type":"Book"');
    expect(book.body).toContain('"priceCurrency":"GBP"');
    expect(book.body).toContain('property="og:image"');

    const missing = await demo("/book/00000000-0000-0000-0000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.body).toContain("Book Not Found");
    expect((await demo("/book/not-a-uuid")).status).toBe(404);

    const about = await demo("/about");
    expect(about.body).toContain("My Writing Journey");
    expect(about.body).toContain("First short story");

    const blog = await demo("/blog");
    expect(blog.body).toContain("Stay updated with my latest posts, book releases, events, and thoughts on writing.");
    expect(blog.body).toContain("All Posts");
    expect(blog.body).toContain('"@type":"BlogPosting"');
    const events = await demo("/blog?category=events");
    expect(events.body).toContain("Penzance Literary Festival");
    expect(events.body).not.toContain("Why I write by the sea");

    const contact = await demo("/contact");
    expect(contact.body).toContain('name="message"');
    expect(contact.body).toContain('rows="6"');
    expect(contact.body).toContain("e*****r@example.com");
    expect(contact.body).toContain("Instagram");

    expect((await demo("/newsletter")).body).toContain('name="email"');
    expect((await demo("/privacy")).body).toContain("This demo site stores no personal data");

    const news = await demo("/news");
    expect(news.status).toBe(301);
    expect(news.headers.location).toBe("/blog");
    expect((await demo("/no-such-page")).status).toBe(404);
  });

  it("sends a strict CSP that allows only its own inline script by hash", async () => {
    const res = await demo("/");
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60");
    const inline = /<script>([^<]*)<\/script>/.exec(res.body)?.[1] ?? "";
    expect(inline.length).toBeGreaterThan(0);
    // Small enough to inline on every page: the cookie banner, the demo's Close and the newsletter frame's height.
    expect(inline.length).toBeLessThan(900);
    const hash = createHash("sha256").update(inline).digest("base64");
    expect(csp).toContain(`'sha256-${hash}'`);
    const styleHash = createHash("sha256")
      .update(/<style>([^<]*)<\/style>/.exec(res.body)?.[1] ?? "")
      .digest("base64");
    expect(csp).toContain(`'sha256-${styleHash}'`);
    // The app host's own policy must not replace the site's on /demo.
    expect(String((await app("/demo")).headers["content-security-policy"])).toContain(`'sha256-${hash}'`);
  });

  it("keeps React's image preloads after the viewport and before the head's text", async () => {
    // React adds a preload for each image of the page right after the charset and the viewport;
    // the rest of the head (built as text, ADR 080) follows them, as when React rendered it.
    const page = await demo("/book/tides-of-silence");
    const head = page.body.slice(0, page.body.indexOf("<style>"));
    expect(head).toMatch(
      /^<!doctype html><html lang="en"><head><meta charSet="utf-8"\/><meta name="viewport" content="[^"]+"\/>(<link rel="preload" as="image"[^>]*\/>)+<link rel="icon" href="data:,"\/><title>/,
    );
    expect(head.match(/<title>/g)).toHaveLength(1);
  });

  it("keeps the stylesheet whole and in its one place, whatever the author's text says", async () => {
    // The page is sent as the markup around the stylesheet plus the stylesheet's kept bytes;
    // author text naming the stand-in the renderer splits on must change nothing.
    const id = await makeAuthor("stylemark");
    await s.database.db.insert(books).values({
      userId: id,
      title: "The <bookplate-stylesheet> Affair ›",
      slug: "stylemark-affair",
      author: "A",
      shortBlurb: "<p>&lt;bookplate-stylesheet&gt; and <bookplate-stylesheet></bookplate-stylesheet> — “quoted”</p>",
    });
    const page = await hit("stylemark.localhost", "/book/stylemark-affair");
    expect(page.status).toBe(200);
    expect(page.body.match(/<style>/g)).toHaveLength(1);
    expect(page.body).not.toContain("<bookplate-stylesheet>");
    expect(page.body).toContain("<title>The &lt;bookplate-stylesheet&gt; Affair › | Site stylemark</title>");
    const style = /<style>([^<]*)<\/style>/.exec(page.body)?.[1] ?? "";
    expect(style).toContain('.crumbs li+li::before{content:"›"');
    expect(style).toMatch(/^@font-face/);
    const styleHash = createHash("sha256").update(style).digest("base64");
    expect(String(page.headers["content-security-policy"])).toContain(`'sha256-${styleHash}'`);
    expect(Buffer.byteLength(page.body)).toBe(Number(page.headers["content-length"]));
  });

  it("marks each page's own section in the menu and shows a renamed site in its header and footer at once", async () => {
    // The header and the footer are kept as markup per site, address base, section and year.
    const id = await makeAuthor("menumark");
    const db = s.database.db;
    const current = (html: string) =>
      [...html.matchAll(/<a href="([^"]*)" aria-current="page">/g)].map((m) => m[1]).join(",");
    expect(current((await hit("menumark.localhost", "/books")).body)).toBe("/books,/books");
    expect(current((await hit("menumark.localhost", "/about")).body)).toBe("/about,/about");
    expect(current((await hit("menumark.localhost", "/")).body)).toBe("/,/");
    expect(current((await app("/author/menumark/about")).body)).toBe("/author/menumark/about,/author/menumark/about");
    await db
      .update(websites)
      .set({ websiteName: "Renamed Shelf", tagline: "New words" })
      .where(eq(websites.userId, id));
    await markSiteChanged(db, id);
    const page = (await hit("menumark.localhost", "/about")).body;
    expect(page).toContain('<span>Renamed Shelf</span></a><nav class="main"');
    expect(page).toContain('<p class="fname">Renamed Shelf</p><p class="ftag">New words</p>');
    expect(page).toContain(
      "© 2026 Renamed Shelf. All rights reserved.".replace("2026", String(new Date().getUTCFullYear())),
    );
    expect(page).not.toContain("Site menumark");
  });

  it("shows the cookie banner until a choice is stored, with a no-JS fallback", async () => {
    expect((await demo("/")).body).toContain('id="cc"');
    const post = await demo("/cookie-consent", { form: { choice: "accepted" } });
    expect(post.status).toBe(303);
    expect(String(post.headers["set-cookie"])).toContain("cookie_consent=accepted");
    expect(post.headers.location).toBe("/");
    // Without JavaScript the reader goes back to the page they were on, and never off the site.
    const back = async (host: string, path: string, to: string) =>
      (await hit(host, path, { form: { choice: "declined", back: to } })).headers.location;
    expect(await back("demo.localhost", "/cookie-consent", "/books")).toBe("/books");
    expect(await back("localhost", "/demo/cookie-consent", "/demo/books")).toBe("/demo/books");
    for (const evil of ["//evil.example/", "/\\evil.example", "https://evil.example/", "/books x"])
      expect(await back("demo.localhost", "/cookie-consent", evil)).toBe("/");
    expect(await back("localhost", "/demo/cookie-consent", "/dashboard")).toBe("/demo");
    expect((await demo("/", { cookie: "cookie_consent=declined" })).body).not.toContain('id="cc"');
  });

  it("serves sitemap, robots and rss that are well-formed", async () => {
    const sm = await demo("/sitemap.xml");
    expect(sm.headers["content-type"]).toContain("xml");
    expect(sm.body).toMatch(/^<\?xml/);
    expect(sm.body).toContain(`<loc>http://demo.localhost:${s.port}/book/tides-of-silence</loc>`);
    expect(sm.body).not.toContain(demoBookId);
    expect(sm.body.match(/<url>/g)?.length).toBe(sm.body.match(/<\/url>/g)?.length);
    const robots = await demo("/robots.txt");
    expect(robots.body).toContain("Sitemap: http://demo.localhost");
    const rss = await demo("/rss.xml");
    expect(rss.body).toContain('<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">');
    // The feed names its own address (feed validators ask for it): the address it was fetched from.
    const self = /<atom:link href="([^"]+)" rel="self" type="application\/rss\+xml"\/>/.exec(rss.body)?.[1];
    expect(self).toBe(`http://demo.localhost:${s.port}/rss.xml`);
    expect((await demo(new URL(self ?? "http://x/").pathname)).body).toBe(rss.body);
    expect(rss.body).toContain("<item><title>");
  });

  it("serves self-hosted fonts", async () => {
    const f = await app("/_fonts/merriweather-400.woff2");
    expect(f.status).toBe(200);
    expect(f.headers["content-type"]).toBe("font/woff2");
    expect((await app("/_fonts/comic-sans-400.woff2")).status).toBe(404);
    expect((await app("/_fonts/merriweather-300.woff2")).status).toBe(404);
  });
});

describe("demo and preview on the app host", () => {
  it("shows the demo with banner, /demo links and disabled forms", async () => {
    const res = await app("/demo/contact");
    expect(res.status).toBe(200);
    expect(res.body).toContain("Demo Site - This is a preview of an author website built with Bookplate");
    expect(res.body).toContain('href="/demo/books"');
    expect(res.body).toMatch(/<textarea[^>]*disabled/);
    expect(res.body).not.toContain('name="robots"');
    expect(res.body).toContain(`<link rel="canonical" href="http://demo.localhost:${s.port}/contact"/>`);
    const posted = await app("/demo/contact", { form: { name: "a", email: "a@b.co", subject: "s", message: "m" } });
    expect(posted.status).toBe(403);
    const missing = await app("/demo/book/00000000-0000-0000-0000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.body).toContain("Book not found");
  });

  it("previews an author's site under /author/{sub}", async () => {
    await makeAuthor("previewer");
    const res = await app("/author/previewer/about");
    expect(res.status).toBe(200);
    expect(res.body).toContain("Site previewer");
    expect(res.body).toContain('href="/author/previewer/books"');
    expect(res.body).not.toContain("Demo Site");
    expect((await app("/author/nobodyhere")).body).toContain("<h1>Author not found</h1>");
  });
});
