// The settings of the site's pages through the API, and what a reader then sees: the newsletter
// (embed and subscribers), Privacy & Legal, the home page and the blog's title and description.
import { request } from "node:http";
import { and, eq, ne } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newsletterSubscribers } from "../../../db/schema/index.ts";
import { EMBED_WARNING } from "../../../shared/schemas/newsletter-settings.ts";
import {
  apiClient,
  type Caller,
  type Client,
  callApi,
  type Json,
  type JsonBody,
  readJson,
} from "../../../testing/api-client.ts";

type Site = Client["site"];

import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor, createSignedInUser } from "../../../testing/users.ts";

startFileServer();

/** The author chooses to show the Blog and Newsletter pages while they are empty. */
async function showEmpty(a: { cookie: string }) {
  expect(
    (await readJson(apiClient(s, a).site.settings.$patch({ json: { showWhenEmpty: ["blog", "newsletter"] } }))).status,
  ).toBe(200);
}

describe("newsletter settings and subscribers", () => {
  const put = (a: { cookie: string }, body: JsonBody<Client["site"]["newsletter"]["$put"]>) =>
    readJson(apiClient(s, a).site.newsletter.$put({ json: body }));
  const newsletterSettings = async (a: Caller) => (await readJson(apiClient(s, a).site.newsletter.$get())).body;
  const subscribers = async (a: Caller) =>
    (await readJson(apiClient(s, a).newsletter.subscribers.$get({ query: {} }))).body.subscribers as Json[];
  const embed = '<form action="https://list.example.com/subscribe" method="post"><input name="email"></form>';

  it("keeps a provider's embed, shown framed on the public page; empty goes back to the site's own form", async () => {
    const a = await createAuthor(s);
    expect((await newsletterSettings(a)).embedCode).toBeNull();
    await s.onHost(`${a.subdomain}.localhost`, "/newsletter");
    expect((await put(a, { embedCode: `  ${embed}  ` })).body.embedCode).toBe(embed);
    const framed = (await s.onHost(`${a.subdomain}.localhost`, "/newsletter")).body;
    expect(framed).toMatch(/<iframe[^>]*sandbox=/);
    expect(framed).not.toContain('action="https://list.example.com/subscribe"');

    expect((await put(a, { embedCode: "" })).body.embedCode).toBeNull();
    expect((await s.onHost(`${a.subdomain}.localhost`, "/newsletter")).body).not.toContain("<iframe");
  });

  it("refuses what is not an embed code with the spec's warning, and changes nothing", async () => {
    const a = await createAuthor(s);
    await put(a, { embedCode: embed });
    for (const body of [{ embedCode: "just some words" }, { embedCode: 42 }, { embedCode: embed, userId: "x" }]) {
      // Wrong shapes among them on purpose, which the typed client refuses to send.
      const res = await callApi(s, a, "PUT", "/api/site/newsletter", body);
      expect(res.status).toBe(400);
    }
    const res = await put(a, { embedCode: "<p>Sign up!</p>" });
    expect(res.body.error).toMatchObject({ code: "validation_failed", message: EMBED_WARNING, field: "embedCode" });
    expect((await newsletterSettings(a)).embedCode).toBe(embed);
  });

  it("lists the author's own subscribers, exports the confirmed ones, and removes one", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    await showEmpty(a); // these pages are looked at before they have content (ADR 052)
    await s.onHost(`${a.subdomain}.localhost`, "/newsletter");
    // A formula-looking address cannot come through the form; a list imported later might hold one.
    await s.database.db
      .insert(newsletterSubscribers)
      .values({ userId: a.id, email: "=cmd@example.com", confirmToken: `t-${Date.now()}` });
    for (const email of ["first@example.com", "pending@example.com"]) {
      await new Promise<void>((resolve, reject) => {
        const body = `email=${encodeURIComponent(email)}`;
        const req = request(
          {
            host: "127.0.0.1",
            port: s.port,
            path: "/newsletter",
            method: "POST",
            headers: {
              host: `${a.subdomain}.localhost:${s.port}`,
              "content-type": "application/x-www-form-urlencoded",
              "content-length": Buffer.byteLength(body),
            },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve());
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    }
    await s.database.db
      .update(newsletterSubscribers)
      .set({ status: "confirmed", confirmedAt: new Date("2026-11-01T10:00:00Z") })
      .where(and(eq(newsletterSubscribers.userId, a.id), ne(newsletterSubscribers.email, "pending@example.com")));

    const list = await subscribers(a);
    expect(list.map((x) => [x.email, x.status]).sort()).toEqual([
      ["=cmd@example.com", "confirmed"],
      ["first@example.com", "confirmed"],
      ["pending@example.com", "pending"],
    ]);
    expect(await subscribers(b)).toEqual([]);

    const csv = await apiClient(s, a).newsletter["subscribers.csv"].$get();
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\n");
    expect(lines[0]).toBe("email,confirmed_at");
    expect(lines.slice(1).sort()).toEqual([
      "'=cmd@example.com,2026-11-01T10:00:00.000Z",
      "first@example.com,2026-11-01T10:00:00.000Z",
    ]);

    const target = list.find((x) => x.email === "pending@example.com")?.id;
    const del = (who: { cookie: string }) =>
      apiClient(s, who).newsletter.subscribers[":id"].$delete({ param: { id: target } });
    expect((await del(b)).status).toBe(404);
    expect(await subscribers(a)).toHaveLength(3);
    expect((await del(a)).status).toBe(204);
    expect(await subscribers(a)).toHaveLength(2);
    expect((await del(a)).status).toBe(404);
    expect((await apiClient(s).newsletter.subscribers.$get({ query: {} })).status).toBe(401);
  });
});

describe("privacy & legal page", () => {
  const getLegal = (a: Caller) => readJson(apiClient(s, a).site.legal.$get());
  const putLegal = (a: Caller, json: JsonBody<Site["legal"]["$put"]>) =>
    readJson(apiClient(s, a).site.legal.$put({ json }));
  /** The generated notice readers see until the author saves their own (ADR 052). */
  const EMPTY = "This notice explains what";
  /** The answer with the generated notice left out (its wording is placeholders.test.ts's). */
  const stored = (body: Record<string, unknown>) => {
    expect(typeof body.generated).toBe("string");
    const { generated: _, ...rest } = body;
    return rest;
  };

  it("needs a session and a website; a new site's page is shown, empty", async () => {
    expect((await getLegal({ cookie: "" })).status).toBe(401);
    expect((await putLegal({ cookie: "" }, { content: "<p>x</p>", isEnabled: true })).status).toBe(401);
    const noSite = await createSignedInUser(s);
    expect((await getLegal(noSite)).status).toBe(404);
    expect((await putLegal(noSite, { content: "<p>x</p>", isEnabled: true })).status).toBe(404);
    const a = await createAuthor(s);
    expect(stored((await getLegal(a)).body)).toEqual({ content: null, isEnabled: true });
    expect((await s.onHost(`${a.subdomain}.localhost`, "/privacy")).body).toContain(EMPTY);
  });

  it("saves cleaned text that readers see at once, and hides it when switched off", async () => {
    const a = await createAuthor(s);
    expect((await s.onHost(`${a.subdomain}.localhost`, "/privacy")).body).toContain(EMPTY); // now cached
    const saved = await putLegal(a, {
      content: '<p>We keep <strong>nothing</strong>.</p><script>alert(1)</script><p onclick="x()">Ask us.</p>',
      isEnabled: true,
    });
    expect(saved.status).toBe(200);
    expect(stored(saved.body)).toEqual({
      content: "<p>We keep <strong>nothing</strong>.</p><p>Ask us.</p>",
      isEnabled: true,
    });
    expect((await getLegal(a)).body).toEqual(saved.body);
    const page = (await s.onHost(`${a.subdomain}.localhost`, "/privacy")).body;
    expect(page).toContain("<p>We keep <strong>nothing</strong>.</p>");
    expect(page).not.toContain("alert(1)");
    expect(page).not.toContain(EMPTY);

    expect((await putLegal(a, { content: saved.body.content, isEnabled: false })).body.isEnabled).toBe(false);
    // Switched off: the page answers 'not found' and the footer does not link it (ADR 052).
    const hidden = await s.onHost(`${a.subdomain}.localhost`, "/privacy");
    expect(hidden.status).toBe(404);
    expect(hidden.body).not.toContain("We keep");
    expect((await s.onHost(`${a.subdomain}.localhost`, "/")).body).not.toContain("Privacy &amp; Legal");

    // Text with nothing readable left is no text.
    expect((await putLegal(a, { content: "<p> </p><script>x</script>", isEnabled: true })).body.content).toBeNull();
  });

  it("refuses bad input with a message that names the field, and changes nothing", async () => {
    const a = await createAuthor(s);
    await putLegal(a, { content: "<p>Kept.</p>", isEnabled: true });
    const cases: [unknown, RegExp][] = [
      ["{not json", /JSON/i],
      [{ content: "<p>x</p>" }, /isEnabled is required/],
      [{ content: 42, isEnabled: true }, /Content must be text/],
      [{ content: "<p>x</p>", isEnabled: "yes" }, /Show the page must be true or false/],
      [{ content: "x".repeat(50_001), isEnabled: true }, /Content must be at most 50,000 characters/],
      [{ content: "<p>x</p>", isEnabled: true, userId: "someone-else" }, /userId/],
    ];
    for (const [body, message] of cases) {
      // Malformed JSON, wrong shapes and an unknown field among them on purpose, which the typed client refuses to send.
      const res = await callApi(s, a, "PUT", "/api/site/legal", body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    expect(stored((await getLegal(a)).body)).toEqual({ content: "<p>Kept.</p>", isEnabled: true });
  });

  it("is each author's own: another author can neither read nor change it", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    await putLegal(a, { content: "<p>A's terms.</p>", isEnabled: true });
    expect(stored((await getLegal(b)).body)).toEqual({ content: null, isEnabled: true });
    await putLegal(b, { content: "<p>B's terms.</p>", isEnabled: false });
    expect(stored((await getLegal(a)).body)).toEqual({ content: "<p>A's terms.</p>", isEnabled: true });
    expect((await s.onHost(`${a.subdomain}.localhost`, "/privacy")).body).toContain("<p>A's terms.</p>");
    expect((await s.onHost(`${b.subdomain}.localhost`, "/privacy")).status).toBe(404);
  });
});

describe("home page settings", () => {
  const getHome = (a: Caller) => readJson(apiClient(s, a).site.home.$get());
  const putHome = (a: Caller, json: JsonBody<Site["home"]["$put"]>) =>
    readJson(apiClient(s, a).site.home.$put({ json }));
  const DEFAULTS: JsonBody<Site["home"]["$put"]> = {
    layoutStyle: "left",
    heroImageUrl: null,
    heroTextColor: "#ffffff",
    heroButtonColor: "#2563eb",
    heroButtonTextColor: "#ffffff",
    heroButtonSecondaryColor: "#ffffff",
    heroButtonSecondaryTextColor: "#000000",
    homePageContent: null,
  };

  it("needs a session and a website, and starts from the spec's defaults", async () => {
    expect((await getHome({ cookie: "" })).status).toBe(401);
    expect((await putHome({ cookie: "" }, DEFAULTS)).status).toBe(401);
    const noSite = await createSignedInUser(s);
    expect((await getHome(noSite)).status).toBe(404);
    expect((await putHome(noSite, DEFAULTS)).status).toBe(404);
    const a = await createAuthor(s);
    expect((await getHome(a)).body).toEqual(DEFAULTS);
  });

  it("saves the hero layout, image, colours and cleaned content; the home page follows at once", async () => {
    const a = await createAuthor(s);
    expect((await s.onHost(`${a.subdomain}.localhost`, "/")).body).not.toContain('class="hero"'); // now cached
    const saved = await putHome(a, {
      ...DEFAULTS,
      layoutStyle: "hero",
      heroImageUrl: "https://images.example/coast.jpg",
      heroButtonColor: "#B91C1C",
      homePageContent: "<p>New book <em>out now</em>.</p><img src=x onerror=alert(1)><script>alert(2)</script>",
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      ...DEFAULTS,
      layoutStyle: "hero",
      heroImageUrl: "https://images.example/coast.jpg",
      heroButtonColor: "#b91c1c",
      homePageContent: '<p>New book <em>out now</em>.</p><img src="x" />',
    });
    expect((await getHome(a)).body).toEqual(saved.body);
    const page = (await s.onHost(`${a.subdomain}.localhost`, "/")).body;
    expect(page).toContain('class="hero"');
    expect(page).toContain('.hero{background-image:url("https://images.example/coast.jpg")}');
    expect(page).toContain("--hero-btn:#b91c1c");
    expect(page).toContain("<em>out now</em>");
    expect(page).not.toMatch(/onerror|alert\(/);
  });

  it("refuses bad input with a message that names the field, and changes nothing", async () => {
    const a = await createAuthor(s);
    const good: JsonBody<Site["home"]["$put"]> = { ...DEFAULTS, layoutStyle: "center" };
    await putHome(a, good);
    const cases: [unknown, RegExp][] = [
      ["{not json", /JSON/i],
      [{ ...good, layoutStyle: "grid" }, /Layout must be one of left, center, hero/],
      [
        { ...good, heroImageUrl: "http://images.example/a.jpg" },
        /Hero image must be an address starting with https:\/\//,
      ],
      [{ ...good, heroImageUrl: 'https://x.example/a.jpg");}body{display:none' }, /Hero image must be an address/],
      [{ ...good, heroImageUrl: "javascript:alert(1)" }, /Hero image must be an address/],
      [{ ...good, heroTextColor: "white" }, /Hero text colour must be a colour like #2563eb/],
      [{ ...good, heroButtonColor: 12 }, /Hero button colour must be text/],
      [{ ...good, homePageContent: "x".repeat(50_001) }, /Home page content must be at most 50,000 characters/],
      [{ ...good, websiteName: "Another" }, /websiteName/],
      [{ layoutStyle: "hero" }, /required/],
    ];
    for (const [body, message] of cases) {
      // Malformed JSON, wrong shapes and unknown fields among them on purpose, which the typed client refuses to send.
      const res = await callApi(s, a, "PUT", "/api/site/home", body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    expect((await getHome(a)).body).toEqual(good);
  });

  it("is each author's own: another author can neither read nor change it", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    await putHome(a, { ...DEFAULTS, layoutStyle: "hero", homePageContent: "<p>A's news</p>" });
    expect((await getHome(b)).body).toEqual(DEFAULTS);
    await putHome(b, { ...DEFAULTS, layoutStyle: "center", homePageContent: "<p>B's news</p>" });
    expect((await getHome(a)).body).toMatchObject({ layoutStyle: "hero", homePageContent: "<p>A's news</p>" });
    expect((await s.onHost(`${a.subdomain}.localhost`, "/")).body).toContain("<p>A's news</p>");
    expect((await s.onHost(`${b.subdomain}.localhost`, "/")).body).not.toContain("A's news");
  });
});

describe("blog page title and description", () => {
  const getBlog = (a: Caller) => readJson(apiClient(s, a).site.blog.$get());
  const putBlog = (a: Caller, json: JsonBody<Site["blog"]["$put"]>) =>
    readJson(apiClient(s, a).site.blog.$put({ json }));

  it("needs a session and a website, and starts empty (the defaults show)", async () => {
    expect((await getBlog({ cookie: "" })).status).toBe(401);
    expect((await putBlog({ cookie: "" }, { title: "x", description: null })).status).toBe(401);
    expect((await getBlog(await createSignedInUser(s))).status).toBe(404);
    const a = await createAuthor(s);
    await showEmpty(a); // these pages are looked at before they have content (ADR 052)
    expect((await getBlog(a)).body).toEqual({ title: null, description: null });
    const page = await s.onHost(`${a.subdomain}.localhost`, "/blog");
    expect(page.body).toContain("<h1>Blog</h1>");
    expect(page.body).toContain("Stay updated with my latest posts, book releases, events, and thoughts on writing.");
  });

  it("saves both; readers see them at once, and emptied they go back to the defaults", async () => {
    const a = await createAuthor(s);
    await showEmpty(a); // these pages are looked at before they have content (ADR 052)
    const host = `${a.subdomain}.localhost`;
    await s.onHost(host, "/blog"); // cached
    const saved = await putBlog(a, { title: "  Notes from the Desk ", description: "Letters & news." });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ title: "Notes from the Desk", description: "Letters & news." });
    const page = await s.onHost(host, "/blog");
    expect(page.body).toContain("<h1>Notes from the Desk</h1>");
    expect(page.body).toContain("Letters &amp; news.");
    expect(page.body).toContain("<title>Notes from the Desk | ");
    expect((await putBlog(a, { title: "", description: "  " })).body).toEqual({ title: null, description: null });
    expect((await s.onHost(host, "/blog")).body).toContain("<h1>Blog</h1>");
  });

  it("refuses bad input with a message that names the field, and changes nothing", async () => {
    const a = await createAuthor(s);
    await putBlog(a, { title: "Kept", description: null });
    for (const [body, message, field] of [
      [{ title: "x".repeat(81), description: null }, "Title must be at most 80 characters", "title"],
      [{ title: null, description: "x".repeat(301) }, "Description must be at most 300 characters", "description"],
      [{ title: 5, description: null }, "Title must be text", "title"],
      [{ title: "A", description: null, userId: "other" }, "Unknown field: userId", "userId"],
    ] as const) {
      // Wrong shapes and an unknown field among them on purpose, which the typed client refuses to send.
      const res = await callApi(s, a, "PUT", "/api/site/blog", body);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toContain(message);
      expect(res.body.error.field).toBe(field);
    }
    expect((await getBlog(a)).body).toEqual({ title: "Kept", description: null });
  });

  it("is each author's own: another author can neither read nor change it", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    await putBlog(a, { title: "A's journal", description: null });
    expect((await getBlog(b)).body).toEqual({ title: null, description: null });
    await putBlog(b, { title: "B's journal", description: null });
    expect((await getBlog(a)).body.title).toBe("A's journal");
    expect((await s.onHost(`${a.subdomain}.localhost`, "/blog")).body).not.toContain("B&#x27;s journal");
  });
});
