// Click counting, when the author turns it on (ADR 069): each reader's links go through a signed
// redirect on the author's site, counted per link (clicks, distinct readers) and sent on to the
// address the author wrote; off, the links are the author's own; a changed, made-up or other
// site's link is a 404 page that counts nothing. Real SMTP server, real requests.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsletterLinkReaders, newsletterLinks } from "../../../db/schema/index.ts";
import { apiClient, type Caller, callApi, type Json, readJson } from "../../../testing/api-client.ts";
import { readMail } from "../../../testing/mail-message.ts";
import { addReaders, draftOn, type NewsletterBody, sendOn } from "../../../testing/newsletters.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ NEWSLETTER_SEND_RATE: "50" }, { mailDelivery: { pollMs: 150 } });
});
afterAll(async () => {
  await s?.close();
});

const A = "https://example.com/a?x=1&y=%C3%BC&z=a+b#part-2";
const B = "http://Example.org/b/";
const CONTENT =
  `<p>Two links: <a href="${A.replace(/&/g, "&amp;")}">the first</a> and <a href="${B}">the second</a>, ` +
  `the first again <a href="${A.replace(/&/g, "&amp;")}">here</a>, and <a href="mailto:jane@example.com">mail me</a>.</p>`;

/** Sends a newsletter to the author's readers and waits for every copy. */
async function sendOut(a: TestAuthor, body: Partial<NewsletterBody>): Promise<string> {
  const { id } = await draftOn(s, a, { subject: `Clicks ${Math.random()}`, content: CONTENT, ...body });
  expect((await sendOn(s, a, id)).status).toBe(200);
  await s.mailer.idle();
  return id;
}

/** The HTML and text a reader received. */
function copyOf(reader: string) {
  const raw = s.smtp.mails.findLast((m) => m.to.includes(reader))?.raw ?? "";
  const mail = readMail(raw);
  return { html: mail.part("text/html")?.body ?? "", text: mail.part("text/plain")?.body ?? "" };
}

const hrefs = (html: string) =>
  [...html.matchAll(/<a\b[^>]*href="([^"]*)"/g)].map((m) => (m[1] ?? "").replace(/&amp;/g, "&"));

const BROWSER = { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148" };
/** A reader's mail program opening the link in their browser. */
const follow = (link: string, headers: Record<string, string> = {}) => {
  const u = new URL(link);
  return s.onHost(u.hostname, u.pathname + u.search, { ...BROWSER, ...headers });
};

const one = (who: Caller) => apiClient(s, who).newsletters[":id"];
const read = (who: Caller, id: string) => readJson(one(who).$get({ param: { id } }));
const figures = async (a: TestAuthor, id: string) =>
  (await readJson(one(a).figures.$get({ param: { id } }))).body.links as Json[];

describe("newsletter clicks", () => {
  it("counts each link's clicks and distinct readers, and sends readers to the address as written", async () => {
    const a = await createAuthor(s);
    const [r1, r2] = (await addReaders(s, a, 2)) as [string, string];
    const id = await sendOut(a, { countClicks: true });

    const site = `http://${a.subdomain}.localhost:${s.port}`;
    const links1 = hrefs(copyOf(r1).html);
    const links2 = hrefs(copyOf(r2).html);
    // Web links through the site's redirect (the same address twice: the same counted link);
    // the mail link and the reader's unsubscribe link as they were.
    const counted1 = links1.filter((l) => l.startsWith(`${site}/go/`));
    expect(counted1).toHaveLength(3);
    expect(counted1[0]).toBe(counted1[2]);
    expect(links1).toContain("mailto:jane@example.com");
    expect(links1.some((l) => l.startsWith(`${site}/unsubscribe?token=`))).toBe(true);
    expect(links1.join(" ")).not.toContain("example.com/a");
    // The text part points at the same redirects.
    expect(copyOf(r1).text).toContain(counted1[0]);
    // Each reader's links are their own.
    const counted2 = links2.filter((l) => l.startsWith(`${site}/go/`));
    expect(counted2[0]).not.toBe(counted1[0]);

    const first = await follow(counted1[0] as string);
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe(A);
    expect(first.headers["cache-control"] ?? "").not.toContain("public");
    expect((await follow(counted1[1] as string)).headers.location).toBe(B);
    await follow(counted1[2] as string);
    await follow(counted2[0] as string);
    // A known robot (a link checker) is sent on but not counted.
    expect((await follow(counted2[1] as string, { "user-agent": "Googlebot/2.1" })).status).toBe(302);

    expect(await figures(a, id)).toEqual([
      { url: A, clicks: 3, readers: 2 },
      { url: B, clicks: 1, readers: 1 },
    ]);
    // Who clicked is kept as a number per link, never as the reader's id or address.
    const [link] = await s.database.db.select().from(newsletterLinks).where(eq(newsletterLinks.url, A));
    const readers = await s.database.db
      .select()
      .from(newsletterLinkReaders)
      .where(eq(newsletterLinkReaders.linkId, link?.id as string));
    expect(readers).toHaveLength(2);
    expect(readers.every((r) => Number.isInteger(r.reader) && Object.keys(r).length === 2)).toBe(true);
  });

  it("off (the default): the links are the author's own and nothing is counted", async () => {
    const a = await createAuthor(s);
    const [r1] = (await addReaders(s, a, 1)) as [string];
    const id = await sendOut(a, {});
    expect((await read(a, id)).body.newsletter.countClicks).toBe(false);
    const links = hrefs(copyOf(r1).html);
    expect(links).toContain(A);
    expect(links).toContain(B);
    expect(links.some((l) => l.includes("/go/"))).toBe(false);
    expect(await figures(a, id)).toEqual([]);
  });

  it("answers a changed, made-up or other site's link with a 404 page and counts nothing", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const [r1] = (await addReaders(s, a, 1)) as [string];
    await addReaders(s, b, 1);
    const id = await sendOut(a, { countClicks: true });
    const good = hrefs(copyOf(r1).html).find((l) => l.includes("/go/")) as string;
    const u = new URL(good);
    const [linkId, reader, mac] = u.pathname.slice("/go/".length).split(".") as [string, string, string];
    const flip = (x: string) => (x[0] === "A" ? "B" : "A") + x.slice(1);
    const bad = [
      `/go/${linkId}.${reader}.${flip(mac)}`,
      `/go/${linkId}.${flip(reader)}.${mac}`,
      `/go/${crypto.randomUUID()}.${reader}.${mac}`,
      `/go/${linkId}.${reader}`,
      "/go/https://evil.example/",
      `/go/?url=${encodeURIComponent("https://evil.example/")}`,
    ];
    for (const path of bad) {
      const res = await s.onHost(u.hostname, path, BROWSER);
      expect(res.status, path).toBe(404);
      expect(res.headers.location, path).toBeUndefined();
      expect(res.body, path).toContain("Link not valid");
    }
    // The same link on another author's site: not theirs, not counted.
    const elsewhere = await s.onHost(`${b.subdomain}.localhost`, u.pathname, BROWSER);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.headers.location).toBeUndefined();
    expect((await figures(a, id)).map((l) => l.clicks)).toEqual([0, 0]);
    // The good one still works.
    expect((await follow(good)).status).toBe(302);
  });

  it("refuses a switch that is not true or false with a clear message, and changes nothing", async () => {
    const a = await createAuthor(s);
    const { id } = await draftOn(s, a, { subject: "S", content: "<p>x</p>" });
    // Not a boolean on purpose, which the typed client refuses to send.
    const res = await callApi(s, a, "PATCH", `/api/newsletters/${id}`, { countClicks: "yes" });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("countClicks must be true or false");
    expect((await read(a, id)).body.newsletter.countClicks).toBe(false);
    // Another author can not turn it on.
    const b = await createAuthor(s);
    expect((await readJson(one(b).$patch({ param: { id }, json: { countClicks: true } }))).status).toBe(404);
    const on = await readJson(one(a).$patch({ param: { id }, json: { countClicks: true } }));
    expect(on.body.newsletter.countClicks).toBe(true);
  });
});
