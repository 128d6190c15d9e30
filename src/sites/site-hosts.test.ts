// A public site by host and by the author's switches: custom domains, sections on and off, expired
// and unpaid subscriptions, author HTML made safe, the theme.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { domainVerifications, subscriptions, websiteCustomization, websites } from "../db/schema/index.ts";
import { markSiteChanged } from "../server/modules/sites/site-changes.service.ts";
import { apiClient } from "../testing/api-client.ts";
import { app, expectNoXss, hit, makeAuthor, s, startSiteServer } from "../testing/sites.ts";
import { completeSandboxCheckout, createAuthor } from "../testing/users.ts";

startSiteServer();

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
    await apiClient(s, a).profile.$patch({ json: { bio: "<p>Hello</p>" } });
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

    const checkout = await apiClient(s, a).billing.checkout.$post({ json: { tier: a.tier } });
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
