// A brand-new site shows readers nothing made up (ADR 052): no genre or bio it was not given,
// empty sections out of the menu and answering 404 (the sitemap agrees), a privacy notice built
// from what this site collects; and the dashboard's "live" is the renderer's own rule.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { profiles, subscriptions } from "../db/schema/index.ts";
import { privacyNoticeHtml } from "../server/modules/sites/privacy-notice.ts";
import { apiClient, callApi, readJson } from "../testing/api-client.ts";
import { s, startFileServer } from "../testing/file-server.ts";
import { completeSandboxCheckout, createAuthor, type TestAuthor } from "../testing/users.ts";

startFileServer();
beforeAll(async () => {}, 60_000);

const page = (a: TestAuthor, path: string) => s.onHost(`${a.subdomain}.localhost`, path);
/**
 * The links of the site's main menu, in order: its wide row (a phone gets the same links again
 * in a folded copy, ADR 053, which must list the same ones).
 */
const menu = (html: string) => {
  const nav = html.match(/<nav class="main"[^>]*>([\s\S]*?)<\/nav>/)?.[1] ?? "";
  const links = (part: string) => [...part.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
  const row = links(nav.match(/<ul class="row">([\s\S]*?)<\/ul>/)?.[1] ?? "");
  const folded = links(nav.match(/<details class="fold">([\s\S]*?)<\/details>/)?.[1] ?? "");
  expect(folded).toEqual(row);
  return row;
};
const sitemapPaths = (xml: string, origin: string) =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => (m[1] ?? "").replace(origin, ""));
const PLACEHOLDERS = [
  "Fiction",
  "Author bio coming soon",
  "No privacy and legal information has been configured yet",
  "Coming soon - books will be available here",
  "No books yet",
];

describe("a brand-new site", () => {
  it("shows nothing placeholder on any page, and only Home and Contact in its menu", async () => {
    const a = await createAuthor(s);
    // The wizard gave no genre or bio: the profile holds none.
    const [p] = await s.database.db.select().from(profiles).where(eq(profiles.id, a.id));
    expect(p?.genre).toBe("");
    expect(p?.bio).toBe("");

    const home = await page(a, "/");
    expect(home.status).toBe(200);
    expect(menu(home.body)).toEqual(["Home", "Contact"]);
    for (const path of ["/", "/contact", "/privacy"]) {
      const r = await page(a, path);
      expect(r.status, path).toBe(200);
      for (const text of PLACEHOLDERS) expect(r.body, `${path}: ${text}`).not.toContain(text);
    }
    // Empty sections answer 'not found' like switched-off ones.
    for (const path of ["/books", "/about", "/blog", "/newsletter", "/rss.xml"]) {
      expect((await page(a, path)).status, path).toBe(404);
    }
    // The home page's buttons lead to none of them either.
    expect(home.body).not.toContain("View Books");
    expect(home.body).not.toContain("About Me");
    const origin = `http://${a.subdomain}.localhost:${s.port}`;
    expect(sitemapPaths((await page(a, "/sitemap.xml")).body, origin)).toEqual(["/", "/contact", "/privacy"]);
  });

  it("brings each section into the menu, the pages and the sitemap once it has content", async () => {
    const a = await createAuthor(s);
    const origin = `http://${a.subdomain}.localhost:${s.port}`;

    expect(
      (
        await readJson(
          apiClient(s, a).profile.$patch({ json: { bio: "<p>I write thrillers.</p>", genre: "Thriller" } }),
        )
      ).status,
    ).toBe(200);
    const about = await page(a, "/about");
    expect(about.status).toBe(200);
    expect(about.body).toContain("Thriller");
    expect(about.body).toContain("I write thrillers.");

    expect(
      (await readJson(apiClient(s, a).posts.$post({ json: { title: "First news", content: "<p>Hello</p>" } }))).status,
    ).toBe(201);
    expect((await page(a, "/blog")).status).toBe(200);

    expect(
      (await readJson(apiClient(s, a).books.$post({ json: { title: "A Book", author: "Jane Author" } }))).status,
    ).toBe(201);
    expect((await page(a, "/books")).status).toBe(200);

    // The site's own sign-up form appears once the author chooses it.
    expect((await page(a, "/newsletter")).status).toBe(404);
    const shown = await readJson(apiClient(s, a).site.settings.$patch({ json: { showWhenEmpty: ["newsletter"] } }));
    expect(shown.status).toBe(200);
    expect(shown.body.showWhenEmpty).toEqual(["newsletter"]);
    expect((await page(a, "/newsletter")).status).toBe(200);

    const home = await page(a, "/");
    expect(menu(home.body)).toEqual(["Home", "Books", "About", "Blog", "Newsletter", "Contact"]);
    expect(sitemapPaths((await page(a, "/sitemap.xml")).body, origin).slice(0, 7)).toEqual([
      "/",
      "/books",
      "/about",
      "/blog",
      "/newsletter",
      "/contact",
      "/privacy",
    ]);

    // A switched-off section stays off whatever it holds.
    expect((await readJson(apiClient(s, a).site.settings.$patch({ json: { newsEnabled: false } }))).status).toBe(200);
    expect((await page(a, "/blog")).status).toBe(404);
    expect(menu((await page(a, "/")).body)).not.toContain("Blog");
  });

  it("refuses a section name that does not exist, and changes nothing", async () => {
    const a = await createAuthor(s);
    // A section name the types refuse: sent as is.
    const bad = await callApi(s, a, "PATCH", "/api/site/settings", { showWhenEmpty: ["shop"] });
    expect(bad.status).toBe(400);
    expect(
      ((await readJson(apiClient(s, a).site.settings.$get())).body as { showWhenEmpty: string[] }).showWhenEmpty,
    ).toEqual([]);
  });
});

describe("the generated privacy notice", () => {
  const facts = {
    authorName: "Jane <Author>",
    siteName: "Jane's Books",
    siteAddress: "jane.example.com",
    newsletter: "own" as const,
    contactForm: true,
    books: true,
  };

  it("lists exactly what the site collects, in the author's name", () => {
    const all = privacyNoticeHtml(facts);
    expect(all).toContain("Jane &lt;Author&gt;");
    expect(all).toContain("Jane&#39;s Books (jane.example.com)");
    for (const part of ["Newsletter sign-ups", "Contact messages", "Release alerts", "Store links", "Visit counts"]) {
      expect(all).toContain(part);
    }
    expect(all).toContain("confirm");
    expect(all).toContain("unsubscribe");
    expect(all).toContain("never stored");
    expect(all).toContain("Bookplate");

    const bare = privacyNoticeHtml({ ...facts, newsletter: null, contactForm: false, books: false });
    for (const part of ["Newsletter sign-ups", "Contact messages", "Release alerts", "Store links"]) {
      expect(bare).not.toContain(part);
    }
    expect(bare).toContain("Visit counts");

    const provider = privacyNoticeHtml({ ...facts, newsletter: "provider" });
    expect(provider).toContain("email provider");
    expect(provider).not.toContain("unsubscribe");
  });

  it("follows the site's settings until the author saves their own text", async () => {
    const a = await createAuthor(s);
    let privacy = (await page(a, "/privacy")).body;
    // Contact form on by default; no newsletter, no books yet.
    expect(privacy).toContain("Contact messages");
    expect(privacy).not.toContain("Newsletter sign-ups");
    expect(privacy).not.toContain("Store links");
    expect(privacy).toContain("Visit counts");
    expect(privacy).toContain(`${a.subdomain}.localhost`);

    await readJson(
      apiClient(s, a).site.settings.$patch({ json: { showWhenEmpty: ["newsletter"], contactEnabled: false } }),
    );
    privacy = (await page(a, "/privacy")).body;
    expect(privacy).toContain("Newsletter sign-ups");
    expect(privacy).not.toContain("Contact messages");

    // The dashboard starts from the same notice.
    const legal = await readJson(apiClient(s, a).site.legal.$get());
    expect(legal.body.content).toBeNull();
    expect(legal.body.generated).toContain("Newsletter sign-ups");
    expect(legal.body.generated).not.toContain("Contact messages");
    expect(
      ((await readJson(apiClient(s, a).site.status.$get())).body as { privacyGenerated: boolean }).privacyGenerated,
    ).toBe(true);

    // Saved, it is the author's: settings no longer change it.
    const saved = await readJson(
      apiClient(s, a).site.legal.$put({ json: { content: "<p>My own notice.</p>", isEnabled: true } }),
    );
    expect(saved.status).toBe(200);
    await readJson(apiClient(s, a).site.settings.$patch({ json: { contactEnabled: true } }));
    privacy = (await page(a, "/privacy")).body;
    expect(privacy).toContain("My own notice.");
    expect(privacy).not.toContain("Contact messages");
    expect(
      ((await readJson(apiClient(s, a).site.status.$get())).body as { privacyGenerated: boolean }).privacyGenerated,
    ).toBe(false);

    // Switched off: no footer link, no page.
    await readJson(apiClient(s, a).site.legal.$put({ json: { content: "<p>My own notice.</p>", isEnabled: false } }));
    expect((await page(a, "/privacy")).status).toBe(404);
    expect((await page(a, "/")).body).not.toContain("Privacy &amp; Legal");
  });
});

describe("the site's status for the dashboard", () => {
  it("says live only when readers get the site's pages, by the renderer's own rule", async () => {
    const a = await createAuthor(s, { checkout: false });
    const status = async () => (await readJson(apiClient(s, a).site.status.$get())).body as { visibility: string };
    // Before the card: readers get 'Coming soon'.
    expect((await page(a, "/")).status).toBe(503);
    expect((await status()).visibility).toBe("awaiting_checkout");

    const checkout = await readJson(
      apiClient(s, a).billing.checkout.$post({ json: { tier: "mini", currency: "GBP" } }),
    );
    await completeSandboxCheckout(s, a.cookie, String(checkout.body.url));
    expect((await page(a, "/")).status).toBe(200);
    expect((await status()).visibility).toBe("live");

    // Ended (past the paid period): readers get 'temporarily unavailable', and so does the dashboard.
    await s.database.db
      .update(subscriptions)
      .set({ status: "cancelled", currentPeriodEnd: new Date(Date.now() - 60_000) })
      .where(eq(subscriptions.userId, a.id));
    expect((await status()).visibility).toBe("offline");
  });

  it("lists what reads empty, and needs a signed-in author with a website", async () => {
    const a = await createAuthor(s);
    const body = (await readJson(apiClient(s, a).site.status.$get())).body as {
      sections: Record<string, { enabled: boolean; hasContent: boolean; shown: boolean }>;
      genreMissing: boolean;
    };
    expect(body.genreMissing).toBe(true);
    for (const k of ["books", "about", "blog", "newsletter"]) {
      expect(body.sections[k], k).toEqual({ enabled: true, hasContent: false, showWhenEmpty: false, shown: false });
    }
    expect((await apiClient(s).site.status.$get()).status).toBe(401);
  });
});
