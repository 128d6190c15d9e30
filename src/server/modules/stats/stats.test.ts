// The author's Stats through the API: visits made through the public site (real requests, a
// browser's user agent, Referer headers) appear after the counts are flushed; bots, the site's
// own links and other authors' visits do not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books } from "../../../db/schema/index.ts";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, createSignedInUser, type TestAuthor } from "../../../testing/users.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ TRUST_PROXY: "true" });
});
afterAll(async () => {
  await s?.close();
});

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0";

const stats = (a: { cookie: string }, query = "") => readJson(s.api(`/api/stats${query}`, { cookie: a.cookie }));

/** One reader's page view: their own address and browser, arriving from `referer`. */
function view(a: TestAuthor, path: string, reader: number, referer?: string, ua = FIREFOX) {
  return s.onHost(`${a.subdomain}.localhost`, path, {
    "user-agent": ua,
    "x-forwarded-for": `203.0.113.${reader}`,
    ...(referer ? { referer } : {}),
  });
}

describe("author stats", () => {
  it("need a session and a website, and a known range", async () => {
    expect((await stats({ cookie: "" })).status).toBe(401);
    expect((await stats(await createSignedInUser(s))).status).toBe(404);
    const a = await createAuthor(s);
    for (const bad of ["?days=14", "?days=abc", "?days=-7", "?days=7.0"]) {
      const res = await stats(a, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.message).toBe("Days must be 7, 30 or 90");
    }
  });

  it("start at zero: every day of the range, nothing on top", async () => {
    const a = await createAuthor(s);
    const res = await stats(a, "?days=7");
    expect(res.status).toBe(200);
    expect(res.body.days).toBe(7);
    expect(res.body.daily).toHaveLength(7);
    expect(res.body.daily.at(-1).date).toBe(new Date().toISOString().slice(0, 10));
    expect(res.body.totals).toEqual({ pageViews: 0, visitors: 0 });
    expect(res.body.topPages).toEqual([]);
    expect(res.body.referrers).toEqual([]);
    expect((await stats(a)).body.daily).toHaveLength(30);
    expect((await stats(a, "?days=90")).body.daily).toHaveLength(90);
  });

  it("count readers' visits: pages, books by title, and the sites they came from", async () => {
    const a = await createAuthor(s);
    const other = await createAuthor(s);
    // A bio, so that the About page is one readers see (ADR 052).
    await apiClient(s, a).profile.$patch({ json: { bio: "<p>Bio</p>" } });
    const [book] = await s.database.db
      .insert(books)
      .values({ userId: a.id, title: "Tides of Silence", slug: "tides-of-silence", author: a.name })
      .returning({ slug: books.slug });
    const own = `http://${a.subdomain}.localhost:${s.port}/`;
    expect((await view(a, "/", 1, "https://www.google.com/search?q=secret+words")).status).toBe(200);
    await view(a, `/book/${book?.slug}`, 1, own); // moving around the site: not a new arrival
    await view(a, `/book/${book?.slug}`, 2, "https://l.facebook.com/l.php?u=x");
    await view(a, "/about", 2, own);
    await view(a, "/", 3);
    await view(a, "/", 4, "https://google.com/");
    // Not counted: a crawler, a missing page, another author's site.
    await view(a, "/", 5, "https://spam.example/", "Googlebot/2.1 (+http://www.google.com/bot.html)");
    await view(a, "/no-such-page", 6);
    await view(other, "/", 7, "https://other-referrer.example/");

    // Nothing shows until the counts are written.
    expect((await stats(a, "?days=7")).body.totals.pageViews).toBe(0);
    await s.sites.flushVisits();

    const res = await stats(a, "?days=7");
    expect(res.body.totals).toEqual({ pageViews: 6, visitors: 4 });
    expect(res.body.daily.at(-1)).toMatchObject({ pageViews: 6, visitors: 4 });
    expect(res.body.topPages).toEqual([
      { label: "Home", path: "/", views: 3 },
      { label: "Tides of Silence", path: `/book/${book?.slug}`, views: 2 },
      { label: "About", path: "/about", views: 1 },
    ]);
    expect(res.body.topBooks).toEqual([{ label: "Tides of Silence", path: `/book/${book?.slug}`, views: 2 }]);
    expect(res.body.referrers).toEqual([
      { source: "google.com", visits: 2 },
      { source: "", visits: 1 },
      { source: "l.facebook.com", visits: 1 },
    ]);
    // Only hosts are kept: never the search words or the full address.
    expect(JSON.stringify(res.body)).not.toContain("secret");
    expect(JSON.stringify(res.body)).not.toContain("spam.example");

    // The other author sees only their own visit, and nothing of A's.
    const theirs = (await stats(other, "?days=7")).body;
    expect(theirs.totals).toEqual({ pageViews: 1, visitors: 1 });
    expect(theirs.referrers).toEqual([{ source: "other-referrer.example", visits: 1 }]);
    expect(JSON.stringify(theirs)).not.toContain("Tides");
  });
});
