// The web archive of sent newsletters on an author's site (ADR 071): off by default, on and off
// with the cached copies dropped, only sent newsletters, one site never showing another's, the
// body cleaned, in the sitemap and linked from the Newsletter page, a post's newsletter pointing there.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogPosts, newsletters } from "../db/schema/index.ts";
import { apiClient, expectStatus } from "../testing/api-client.ts";
import { runNewsletterJobOn } from "../testing/newsletters.ts";
import { expectNoXss, XSS } from "../testing/sites.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../testing/users.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const page = (a: TestAuthor, path: string) => s.onHost(`${a.subdomain}.localhost`, path);
const setArchive = (a: TestAuthor, on: boolean, postalAddress: string | null = null) =>
  apiClient(s, a).newsletter.settings.$put({ json: { archiveEnabled: on, postalAddress } });

async function newsletter(a: TestAuthor, v: { subject: string; status: string; content?: string; sentAt?: Date }) {
  const [row] = await s.database.db
    .insert(newsletters)
    .values({
      userId: a.id,
      subject: v.subject,
      content: v.content ?? `<p>About ${v.subject}.</p>`,
      status: v.status,
      sentAt: v.status === "sent" ? (v.sentAt ?? new Date()) : null,
    })
    .returning();
  if (!row) throw new Error("no row");
  return row;
}

describe("newsletter archive", () => {
  it("is off by default: no pages, no link, not in the sitemap", async () => {
    const a = await createAuthor(s);
    const n = await newsletter(a, { subject: "Hidden by default", status: "sent" });
    expect(await expectStatus(apiClient(s, a).newsletter.settings.$get(), 200)).toEqual({
      archiveEnabled: false,
      postalAddress: null,
    });
    expect((await page(a, "/newsletter/archive")).status).toBe(404);
    expect((await page(a, `/newsletter/archive/${n.id}`)).status).toBe(404);
    expect((await page(a, "/newsletter")).body).not.toContain("/newsletter/archive");
    expect((await page(a, "/sitemap.xml")).body).not.toContain("/newsletter/archive");
  });

  it("on: lists sent newsletters newest first with their dates; drafts, scheduled and sending ones never show", async () => {
    const a = await createAuthor(s);
    const older = await newsletter(a, {
      subject: "Spring letter",
      status: "sent",
      sentAt: new Date("2026-03-02T10:00:00Z"),
    });
    const newer = await newsletter(a, {
      subject: "Summer letter",
      status: "sent",
      sentAt: new Date("2026-07-09T10:00:00Z"),
    });
    const hidden = [
      await newsletter(a, { subject: "Draft letter", status: "draft" }),
      await newsletter(a, { subject: "Scheduled letter", status: "scheduled" }),
      await newsletter(a, { subject: "Sending letter", status: "sending" }),
    ];
    expect((await setArchive(a, true)).status).toBe(200);

    const list = await page(a, "/newsletter/archive");
    expect(list.status).toBe(200);
    expect(list.body).toContain("<title>Newsletter archive | ");
    const summer = list.body.indexOf("Summer letter");
    expect(summer).toBeGreaterThan(-1);
    expect(summer).toBeLessThan(list.body.indexOf("Spring letter"));
    expect(list.body).toContain("9 July 2026");
    for (const h of hidden) expect(list.body).not.toContain(h.subject);

    const one = await page(a, `/newsletter/archive/${newer.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toContain("<title>Summer letter | ");
    expect(one.body).toContain(`<link rel="canonical" href="http://${a.subdomain}.localhost`);
    expect(one.body).toMatch(/<meta name="description" content="About Summer letter\."/);
    expect(one.body).toContain("<p>About Summer letter.</p>");
    for (const h of hidden) expect((await page(a, `/newsletter/archive/${h.id}`)).status).toBe(404);
    expect((await page(a, "/newsletter/archive/not-an-id")).status).toBe(404);

    // The Newsletter page (shown once the author chooses their own form) links to it.
    await expectStatus(apiClient(s, a).site.settings.$patch({ json: { showWhenEmpty: ["newsletter"] } }), 200);
    expect((await page(a, "/newsletter")).body).toContain('href="/newsletter/archive"');
    const sitemap = (await page(a, "/sitemap.xml")).body;
    expect(sitemap).toContain("/newsletter/archive</loc>");
    expect(sitemap).toContain(`/newsletter/archive/${older.id}</loc><lastmod>2026-03-02</lastmod>`);
    expect(sitemap).not.toContain(hidden[0]?.id);
  });

  it("off again: the pages are gone at once, cached copies included", async () => {
    const a = await createAuthor(s);
    const n = await newsletter(a, { subject: "Soon gone", status: "sent" });
    await setArchive(a, true);
    expect((await page(a, `/newsletter/archive/${n.id}`)).status).toBe(200);
    expect((await page(a, "/newsletter/archive")).status).toBe(200);
    // Asked twice: the second answer is the cached copy.
    expect((await page(a, "/newsletter/archive")).body).toContain("Soon gone");
    await setArchive(a, false);
    expect((await page(a, "/newsletter/archive")).status).toBe(404);
    expect((await page(a, `/newsletter/archive/${n.id}`)).status).toBe(404);
  });

  it("a newsletter that finished going out appears in the cached archive, a deleted one leaves it", async () => {
    const a = await createAuthor(s);
    await setArchive(a, true);
    expect((await page(a, "/newsletter/archive")).body).toContain("No newsletters yet");
    const n = await newsletter(a, { subject: "Just went out", status: "sending" });
    await runNewsletterJobOn(s);
    expect((await page(a, "/newsletter/archive")).body).toContain("Just went out");
    expect((await apiClient(s, a).newsletters[":id"].$delete({ param: { id: n.id } })).status).toBe(204);
    expect((await page(a, "/newsletter/archive")).body).not.toContain("Just went out");
    // Its row stays (blanked, for the daily cap: ADR 069), but its page is gone too.
    expect((await page(a, `/newsletter/archive/${n.id}`)).status).toBe(404);
  });

  it("another author's newsletter is not reachable by its id on this site", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    await setArchive(a, true);
    await setArchive(b, true);
    const theirs = await newsletter(b, { subject: "Only on b's site", status: "sent" });
    expect((await page(b, `/newsletter/archive/${theirs.id}`)).status).toBe(200);
    expect((await page(a, `/newsletter/archive/${theirs.id}`)).status).toBe(404);
    expect((await page(a, "/newsletter/archive")).body).not.toContain("Only on b's site");
    // Nor can another author read or change the settings: each reads and writes their own.
    expect((await expectStatus(apiClient(s, a).newsletter.settings.$get(), 200)).archiveEnabled).toBe(true);
    await setArchive(a, false);
    expect((await expectStatus(apiClient(s, b).newsletter.settings.$get(), 200)).archiveEnabled).toBe(true);
  });

  it("shows a sent newsletter's HTML cleaned, whatever is stored", async () => {
    const a = await createAuthor(s);
    await setArchive(a, true);
    const n = await newsletter(a, { subject: "Unsafe body", status: "sent", content: `<p>Kept words</p>${XSS}` });
    const one = await page(a, `/newsletter/archive/${n.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toContain("Kept words");
    expectNoXss(one.body);
  });

  it("one also published as a blog post: the archive links to the post, and its own address moves there", async () => {
    const a = await createAuthor(s);
    await setArchive(a, true);
    const [post] = await s.database.db
      .insert(blogPosts)
      .values({ userId: a.id, title: "Posted letter", slug: "posted-letter", content: "<p>x</p>", category: "news" })
      .returning();
    const n = await newsletter(a, { subject: "Posted letter", status: "sent" });
    await s.database.db.update(newsletters).set({ postId: post?.id }).where(eq(newsletters.id, n.id));
    await expectStatus(setArchive(a, true), 200);
    expect((await page(a, "/newsletter/archive")).body).toContain('href="/blog/posted-letter"');
    const moved = await page(a, `/newsletter/archive/${n.id}`);
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe("/blog/posted-letter");
    expect((await page(a, "/sitemap.xml")).body).not.toContain(n.id);
  });
});
