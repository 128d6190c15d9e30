import { createHash } from "node:crypto";
import { request } from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  blogPosts,
  bookGenres,
  books,
  contactMessages,
  contactSettings,
  domainVerifications,
  legalPages,
  newsletterSubscribers,
  profiles,
  retailerLinks,
  reviews,
  subscriptions,
  user,
  websiteCustomization,
  websites,
} from "../db/schema/index.ts";
import { markSiteChanged } from "../server/modules/sites/site-changes.service.ts";
import { bookSlugOf } from "../shared/book-path.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { completeSandboxCheckout, createAuthor } from "../testing/users.ts";
import { maskEmail } from "./pages/parts.tsx";

let s: TestServer;
type Res = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** A request with an arbitrary Host header (fetch forbids setting it). */
function hit(
  host: string,
  path: string,
  init: { method?: string; form?: Record<string, string>; cookie?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<Res>((resolve, reject) => {
    const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
    const req = request(
      {
        host: "127.0.0.1",
        port: s.port,
        path,
        method: init.method ?? (body ? "POST" : "GET"),
        headers: {
          host: host.includes(":") ? host : `${host}:${s.port}`,
          ...(body
            ? { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) }
            : {}),
          ...(init.cookie ? { cookie: init.cookie } : {}),
          ...init.headers,
        },
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          data += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}
const demo = (path: string, init?: Parameters<typeof hit>[2]) => hit("demo.localhost", path, init);
const app = (path: string, init?: Parameters<typeof hit>[2]) => hit("localhost", path, init);

const XSS = [
  "<script>alert(1)</script>",
  '<img src=x onerror="alert(2)">',
  '<a href="javascript:alert(3)">click</a>',
  "<svg><script>alert(4)</script></svg>",
  '<iframe src="https://evil.example"></iframe>',
  '<p style="background:url(javascript:alert(5))">styled</p>',
].join("");

function expectNoXss(html: string) {
  // Inline scripts other than ours and JSON-LD must not appear.
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  for (const tag of scripts) expect(tag === "<script>" || tag.includes('type="application/ld+json"')).toBe(true);
  expect(html).not.toMatch(/alert\(\d\)<\/script>/);
  expect(html).not.toMatch(/onerror=/i);
  expect(html).not.toMatch(/href="javascript:/i);
  expect(html).not.toMatch(/<iframe[^>]*evil/i);
  expect(html).not.toMatch(/<svg><script/i);
  expect(html).not.toMatch(/style="background/i);
}

async function makeAuthor(sub: string, opts: { email?: string; xss?: boolean } = {}) {
  const db = s.database.db;
  const id = crypto.randomUUID();
  const email = opts.email ?? `${sub}@example.com`;
  await db.insert(user).values({ id, name: `Author ${sub}`, email, emailVerified: true });
  await db.insert(profiles).values({
    id,
    name: `Author ${sub}`,
    email,
    bio: opts.xss ? `<p>Bio</p>${XSS}` : "<p>Plain bio</p>",
  });
  await db.insert(websites).values({
    userId: id,
    subdomain: sub,
    websiteName: `Site ${sub}`,
    homePageContent: opts.xss ? `<p>Home</p>${XSS}` : null,
    // These sites show every section even while empty, as an author may choose (ADR 052);
    // placeholders.test.ts covers the new site that hides them.
    showWhenEmpty: ["books", "about", "blog", "newsletter"],
  });
  await db.insert(websiteCustomization).values({ userId: id });
  await db.insert(contactSettings).values({
    userId: id,
    contactEmail: `contact-${sub}@example.com`,
    socialLinks: [
      { platform: "facebook", url: "https://facebook.com/x", enabled: true },
      { platform: "youtube", url: "https://youtube.com/x", enabled: false },
      { platform: "email", url: "mailto:a@b.c", enabled: true },
      { platform: "myspace", url: "https://myspace.com/x", enabled: true },
      { platform: "tiktok", url: "  ", enabled: true },
    ],
  });
  if (opts.xss) {
    await db.insert(legalPages).values({ userId: id, content: `<p>Legal</p>${XSS}` });
    await db
      .insert(blogPosts)
      .values({ userId: id, title: "XSS post", slug: "xss-post", content: `<p>Post</p>${XSS}`, category: "news" });
    await db.insert(books).values({
      userId: id,
      title: "XSS book",
      slug: "xss-book",
      author: "A",
      shortBlurb: `<p>Blurb</p>${XSS}`,
      reviewSnippet: XSS,
    });
  }
  return id;
}

let demoBookId = "";
beforeAll(async () => {
  // A trusted proxy lets a test speak for several reader addresses (X-Forwarded-For).
  s = await startTestServer({ SEED_DEMO: "true", TRUST_PROXY: "true" });
  const [b] = await s.database.db.select({ id: books.id }).from(books).where(eq(books.title, "Tides of Silence"));
  demoBookId = b?.id ?? "";
}, 60_000);
afterAll(async () => {
  await s?.close();
});

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

describe("a custom domain", () => {
  it("serves the site only once verified, with the domain as canonical", async () => {
    const id = await makeAuthor("customer");
    const db = s.database.db;
    await db
      .update(websites)
      .set({ customDomain: "books.example.org", domainOption: "custom" })
      .where(eq(websites.userId, id));
    expect((await hit("books.example.org", "/")).status).toBe(404);
    await db
      .insert(domainVerifications)
      .values({ userId: id, domain: "books.example.org", verificationToken: "t", verified: true });
    const res = await hit("books.example.org", "/books");
    expect(res.status).toBe(200);
    expect(res.body).toContain('rel="canonical" href="http://books.example.org/books"');
    expect(res.body).toContain('property="og:url" content="http://books.example.org/books"');
    // The subdomain now sends everyone, crawlers included, to the one address for good.
    const viaSub = await hit("customer.localhost", "/books");
    expect(viaSub.status).toBe(301);
    expect(viaSub.headers.location).toBe("http://books.example.org/books");
    const filtered = await hit("customer.localhost", "/blog?category=news");
    expect(filtered.status).toBe(301);
    expect(filtered.headers.location).toBe("http://books.example.org/blog?category=news");
    expect((await hit("customer.localhost", "/")).headers.location).toBe("http://books.example.org/");
    // The owner's preview on the app host stays where it is.
    expect((await app("/author/customer/books")).status).toBe(200);
    const sitemap = await hit("books.example.org", "/sitemap.xml");
    expect(sitemap.body).toContain("<loc>http://books.example.org/books</loc>");
    expect(sitemap.body).not.toContain("customer.localhost");
  });

  it("keeps serving the subdomain while the domain is not verified", async () => {
    const id = await makeAuthor("unverified");
    await s.database.db
      .update(websites)
      .set({ customDomain: "pending.example.org", domainOption: "custom" })
      .where(eq(websites.userId, id));
    await s.database.db
      .insert(domainVerifications)
      .values({ userId: id, domain: "pending.example.org", verificationToken: "t2", verified: false });
    const res = await hit("unverified.localhost", "/books");
    expect(res.status).toBe(200);
    expect(res.body).toContain(`rel="canonical" href="http://unverified.localhost:${s.port}/books"`);
  });
});

describe("author toggles and subscription", () => {
  it("hides disabled pages from the header and answers 404", async () => {
    const id = await makeAuthor("toggler");
    await s.database.db
      .update(websites)
      .set({ booksEnabled: false, newsEnabled: false, contactEnabled: false })
      .where(eq(websites.userId, id));
    const home = await hit("toggler.localhost", "/");
    expect(home.body).not.toContain('href="/books"');
    expect(home.body).not.toContain('href="/blog"');
    expect(home.body).not.toContain('href="/contact"');
    expect(home.body).toContain('href="/about"');
    for (const p of ["/books", "/blog", "/contact", "/rss.xml"])
      expect((await hit("toggler.localhost", p)).status).toBe(404);
    expect((await hit("toggler.localhost", "/about")).status).toBe(200);
  });

  it("answers 503 on every page when the subscription expired", async () => {
    const id = await makeAuthor("expired");
    await s.database.db.insert(subscriptions).values({ userId: id, tier: "mini", status: "expired" });
    for (const p of ["/", "/books", "/about"]) {
      const r = await hit("expired.localhost", p);
      expect(r.status).toBe(503);
      expect(r.body).toContain("temporarily unavailable");
    }
  });

  it("shows 'coming soon' until checkout completes; the owner's preview shows the site meanwhile", async () => {
    const a = await createAuthor(s, { checkout: false });
    // A bio, so that the About page is one readers would see (ADR 052).
    await s.api("/api/profile", { method: "PATCH", cookie: a.cookie, json: { bio: "<p>Hello</p>" } });
    for (const p of ["/", "/books", "/about", "/sitemap.xml"]) {
      const r = await hit(`${a.subdomain}.localhost`, p);
      expect(r.status, p).toBe(503);
      expect(r.body).toContain("Coming soon");
      // The site's name, none of its content or pages.
      expect(r.body).toContain(`${a.name}&#x27;s Books`);
      expect(r.body).not.toContain("<nav");
      expect(r.body).toContain('name="robots" content="noindex"');
      expect(r.headers["retry-after"]).toBe("86400");
    }
    const preview = await hit("localhost", `/author/${a.subdomain}/about`);
    expect(preview.status).toBe(200);
    expect(preview.body).toContain(a.name);

    const checkout = await s.api("/api/billing/checkout", { method: "POST", cookie: a.cookie, json: { tier: a.tier } });
    await completeSandboxCheckout(s, a.cookie, ((await checkout.json()) as { url: string }).url);
    const live = await hit(`${a.subdomain}.localhost`, "/about");
    expect(live.status).toBe(200);
    expect(live.body).toContain(a.name);
  });

  it("renders empty states and defaults", async () => {
    await makeAuthor("emptyone");
    const b = await hit("emptyone.localhost", "/books");
    expect(b.body).toContain("No books yet");
    expect(b.body).toContain("Coming soon - books will be available here.");
    // No text of the author's: the notice generated from what the site collects (ADR 052).
    expect((await hit("emptyone.localhost", "/privacy")).body).toContain("This notice explains what Site emptyone");
    const about = await hit("emptyone.localhost", "/about");
    // No journey told, none shown: the spec's three invented cards are not the author's story.
    expect(about.body).not.toContain("My Writing Journey");
    expect(about.body).not.toContain('class="year"');
    const contact = await hit("emptyone.localhost", "/contact");
    expect(contact.body).toContain("Facebook");
    expect(contact.body).not.toContain("youtube.com");
    expect(contact.body).not.toContain("myspace");
    expect(contact.body).not.toContain("mailto:a@b.c");
    const home = await hit("emptyone.localhost", "/");
    expect(home.body).toContain("<title>Site emptyone</title>");
    expect(home.body).toContain('name="description"');
    expect(home.body).toContain('property="og:title"');
    expect(home.body).toContain('name="twitter:card"');
    expect(home.body).toContain('"sameAs":["https://facebook.com/x"]');
  });
});

describe("safety", () => {
  it("never lets script, handlers, javascript: links or iframes from author HTML through", async () => {
    await makeAuthor("xssauthor", { xss: true });
    for (const p of ["/", "/about", "/blog", "/privacy", "/books", "/book/xss-book"]) {
      const r = await hit("xssauthor.localhost", p);
      expect(r.status).toBe(200);
      expectNoXss(r.body);
    }
    expect((await hit("xssauthor.localhost", "/about")).body).toContain("<p>Bio</p>");
  });

  it("sandboxes a newsletter embed in its own frame", async () => {
    const id = await makeAuthor("embedder");
    await s.database.db
      .update(websiteCustomization)
      .set({ newsletterEmbedCode: '<form action="https://list.example"><input name="e"></form><script>x()</script>' })
      .where(eq(websiteCustomization.userId, id));
    const page = await hit("embedder.localhost", "/newsletter");
    expect(page.body).toContain('sandbox="allow-scripts allow-forms allow-popups"');
    expect(page.body).not.toContain("x()");
    const embed = await hit("embedder.localhost", "/newsletter/embed");
    expect(String(embed.headers["content-security-policy"])).toContain("sandbox allow-scripts");
  });

  it("serves the embed's HTML only from the author's own host; the app host's preview frames that", async () => {
    const id = await makeAuthor("embedhost");
    await s.database.db
      .update(websiteCustomization)
      .set({ newsletterEmbedCode: '<form action="https://list.example"><input name="phish"></form>' })
      .where(eq(websiteCustomization.userId, id));
    const siteOrigin = `http://embedhost.localhost:${s.port}`;
    const onAppHost = await app("/author/embedhost/newsletter/embed");
    expect(onAppHost.status).toBe(404);
    expect(onAppHost.body).not.toContain('name="phish"');

    const preview = await app("/author/embedhost/newsletter");
    expect(preview.body).toContain(`src="${siteOrigin}/newsletter/embed"`);
    const previewCsp = String(preview.headers["content-security-policy"]);
    expect(previewCsp).toContain(`frame-src ${siteOrigin};`);

    const own = await hit("embedhost.localhost", "/newsletter/embed");
    expect(own.status).toBe(200);
    expect(own.body).toContain('name="phish"');
    // The preview on the app host may frame it; nobody else.
    expect(String(own.headers["content-security-policy"])).toContain(
      `frame-ancestors 'self' http://localhost:${s.port}`,
    );
    const tenantPage = await hit("embedhost.localhost", "/newsletter");
    expect(tenantPage.body).toContain('src="/newsletter/embed"');
    expect(String(tenantPage.headers["content-security-policy"])).toContain("frame-src 'self';");

    const demo = await app("/demo/newsletter");
    expect(String(demo.headers["content-security-policy"])).toContain(`frame-src http://demo.localhost:${s.port};`);
    expect((await app("/demo/newsletter/embed")).status).toBe(404);
  });
});

describe("theme", () => {
  it("puts colours, font and a safe hero image into the inline style", async () => {
    const id = await makeAuthor("themed");
    const db = s.database.db;
    await db
      .update(websites)
      .set({ layoutStyle: "hero", heroImageUrl: "/uploads/hero.webp", footerBackgroundColor: "#123456" })
      .where(eq(websites.userId, id));
    await db
      .update(websiteCustomization)
      .set({ fontFamily: "playfair-display", accentColor: "#ff0000" })
      .where(eq(websiteCustomization.userId, id));
    const home = await hit("themed.localhost", "/");
    expect(home.body).toContain('class="hero"');
    expect(home.body).toContain('url("/uploads/hero.webp")');
    expect(home.body).toContain("--footer-bg:#123456");
    expect(home.body).toContain("--accent:#ff0000");
    expect(home.body).toContain("/_fonts/playfair-display-700.woff2");
    await db
      .update(websites)
      .set({ heroImageUrl: '/uploads/x.webp");}body{color:lime' })
      .where(eq(websites.userId, id));
    await markSiteChanged(db, id);
    const style = /<style>([^<]*)<\/style>/.exec((await hit("themed.localhost", "/")).body)?.[1] ?? "";
    expect(style).toContain("--accent:#ff0000");
    expect(style).not.toContain("color:lime");
  });
});

describe("forms", () => {
  it("keeps the demo author read-only on its own host and its preview, not only under /demo", async () => {
    const db = s.database.db;
    const [site] = await db.select().from(websites).where(eq(websites.subdomain, "demo"));
    const owner = site?.userId ?? "";
    await s.mailer.idle();
    const before = {
      messages: (await db.select().from(contactMessages).where(eq(contactMessages.userId, owner))).length,
      subscribers: (await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.userId, owner)))
        .length,
      mails: s.smtp.mails.length,
    };
    const contact = { name: "R", email: "r@example.com", subject: "Demo host", message: "Hi" };
    for (const send of [
      () => demo("/contact", { form: contact }),
      () => demo("/newsletter", { form: { email: "demo-host@example.com" } }),
      () => app("/author/demo/contact", { form: contact }),
      () => app("/demo/newsletter", { form: { email: "demo-path@example.com" } }),
    ]) {
      const res = await send();
      expect(res.status).toBe(403);
      expect(res.body).toContain("The demo site is read-only.");
    }
    const page = await demo("/contact");
    expect(page.body).toContain("This is the read-only demo: its forms are disabled.");
    expect(page.body).toMatch(/<button[^>]*type="submit"[^>]*disabled/);
    expect((await db.select().from(contactMessages).where(eq(contactMessages.userId, owner))).length).toBe(
      before.messages,
    );
    expect((await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.userId, owner))).length).toBe(
      before.subscribers,
    );
    await s.mailer.idle();
    expect(s.smtp.mails.length).toBe(before.mails);
  });

  it("tells a new subscriber to confirm through the mailed link", async () => {
    await makeAuthor("confirmfirst");
    const res = await hit("confirmfirst.localhost", "/newsletter", { form: { email: "new-reader@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toContain("Thank you for subscribing! You&#x27;ll hear from me soon.");
    expect(res.body).toContain("please open the email we&#x27;ve just sent you and confirm your subscription");
    await s.smtp.waitFor("new-reader@example.com", "Please confirm your newsletter subscription");
  });

  it("stores and mails a contact message; a filled honeypot drops it", async () => {
    // Its contact address was never verified (ADR 014): messages go to the account's own email.
    const id = await makeAuthor("mailme");
    const ok = await hit("mailme.localhost", "/contact", {
      form: { name: "Reader", email: "reader@example.com", subject: "Hello there", message: "Loved it", website: "" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("Thank you for your message! I&#x27;ll get back to you soon.");
    const mail = await s.smtp.waitFor("mailme@example.com", "Hello there");
    await s.mailer.idle();
    expect(s.smtp.mails.some((m) => m.to.includes("contact-mailme@example.com"))).toBe(false);
    expect(mail.text).toContain("Loved it");
    expect(mail.raw).toMatch(/^Reply-To: Reader <reader@example\.com>$/im);
    expect(mail.raw).toMatch(/^From: .*no-?reply/im);
    const bot = await hit("mailme.localhost", "/contact", {
      form: { name: "Bot", email: "bot@example.com", subject: "Spam", message: "Buy", website: "http://spam" },
    });
    expect(bot.status).toBe(200);
    const rows = await s.database.db.select().from(contactMessages).where(eq(contactMessages.userId, id));
    expect(rows.map((r) => r.subject)).toEqual(["Hello there"]);
    const bad = await hit("mailme.localhost", "/contact", {
      form: { name: "x", email: "nope", subject: "s", message: "m" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("valid email");
  });

  it("limits one sender to 5 messages an hour while anti-spam is on, and not when it is off", async () => {
    const id = await makeAuthor("flooded");
    const send = (n: number, email = "flood@example.com") =>
      hit("flooded.localhost", "/contact", {
        form: { name: "Flood", email, subject: `Message ${n}`, message: "Again", website: "" },
      });
    for (let n = 1; n <= 5; n++) expect((await send(n)).status).toBe(200);
    const sixth = await send(6);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toContain("Too many messages. Please try again later.");
    const stored = async () =>
      (await s.database.db.select().from(contactMessages).where(eq(contactMessages.userId, id))).length;
    expect(await stored()).toBe(5);

    await s.database.db.update(contactSettings).set({ antispamEnabled: false }).where(eq(contactSettings.userId, id));
    await markSiteChanged(s.database.db, id);
    expect((await send(7)).status).toBe(200);
    expect(await stored()).toBe(6);
  });

  it("stores a pending newsletter subscriber with a token", async () => {
    const id = await makeAuthor("subs");
    const res = await hit("subs.localhost", "/newsletter", { form: { email: "Fan@Example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toContain("Thank you for subscribing! You&#x27;ll hear from me soon.");
    await hit("subs.localhost", "/newsletter", { form: { email: "fan@example.com" } });
    const rows = await s.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.userId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("pending");
    expect(rows[0]?.confirmToken.length).toBeGreaterThan(20);
    expect((await hit("subs.localhost", "/newsletter", { form: { email: "bad" } })).status).toBe(400);
  });
});

/** Every JSON-LD object of a page, parsed. */
function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? "null") as Record<string, unknown>,
  );
}
const meta = (html: string, attr: "name" | "property", key: string) =>
  new RegExp(`<meta ${attr}="${key.replace(/[:.]/g, "\\$&")}" content="([^"]*)"`).exec(html)?.[1];

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

describe("the Edit Book button", () => {
  it("shows only to the signed-in owner, only on the app host's preview", async () => {
    const owner = await createAuthor(s);
    const other = await createAuthor(s);
    const created = await s.api("/api/books", {
      method: "POST",
      cookie: owner.cookie,
      json: { title: "Owned Book", author: owner.name },
    });
    expect(created.status).toBe(201);
    const { id: bookId, slug } = ((await created.json()) as { book: { id: string; slug: string } }).book;
    expect(slug).toBe("owned-book");
    const path = `/author/${owner.subdomain}/book/${slug}`;
    const fab = `<a class="fab" href="/edit-book/${bookId}">`;

    const mine = await app(path, { cookie: owner.cookie });
    expect(mine.status).toBe(200);
    expect(mine.body).toContain(fab);
    expect(mine.body).toContain("Edit Book");
    expect(mine.headers["cache-control"]).toBe("no-store");

    for (const cookie of [other.cookie, undefined, "better-auth.session_token=forged.value"]) {
      const r = await app(path, cookie ? { cookie } : {});
      expect(r.status).toBe(200);
      expect(r.body).not.toContain("Edit Book");
    }
    // Tenant hosts never show it, even to a request that carries the owner's cookie.
    const tenant = await hit(`${owner.subdomain}.localhost`, `/book/${slug}`, { cookie: owner.cookie });
    expect(tenant.status).toBe(200);
    expect(tenant.body).not.toContain("Edit Book");
    expect((await app(`/author/${owner.subdomain}/about`, { cookie: owner.cookie })).body).not.toContain("Edit Book");
  });
});

describe("maskEmail", () => {
  it("follows the spec's rule", () => {
    expect(maskEmail("ab@x.com")).toBe("ab@x.com");
    expect(maskEmail("abc@x.com")).toBe("a***c@x.com");
    expect(maskEmail("eleanor@example.com")).toBe("e*****r@example.com");
  });
});

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
