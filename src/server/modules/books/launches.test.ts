// Launches (issue 17): a pre-order's page counts down and takes "tell me when it's out" sign-ups
// (double opt-in through the real SMTP catcher); on release day the job mails each confirmed
// reader once (clock injected), unconfirmed ones never, and a second run sends nothing. The
// author sees the counts and can mail themselves a test; another author sees nothing.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, releaseAlerts } from "../../../db/schema/index.ts";
import { apiClient, expectStatus } from "../../../testing/api-client.ts";
import { firstLink } from "../../../testing/smtp-catcher.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";
import { createLogger } from "../../lib/logger.ts";
import { daysUntil, sendLaunchDayMails } from "./launches.service.ts";

let s: TestServer;
let jane: TestAuthor;
let other: TestAuthor;
let bookId = "";
const RELEASE = "2031-03-14";

/** A book's release alerts, as `a`. */
const alerts = (a: TestAuthor) => apiClient(s, a).books[":id"]["release-alerts"];
const post = (host: string, path: string, form: Record<string, string>) => s.postOnHost(host, path, form);
/** A reader asks on the book page and follows the mailed link to the end. */
async function signUp(email: string, confirm: boolean) {
  const host = `${jane.subdomain}.localhost`;
  const asked = await post(host, "/book/the-comet-year/alert", { email });
  expect(asked.status).toBe(200);
  expect(asked.body).toContain("Check your inbox");
  const mail = await s.smtp.waitFor(email, "Please confirm");
  if (!confirm) return;
  const link = new URL(firstLink(mail.text));
  expect(link.pathname).toBe("/alerts/confirm");
  const page = await s.onHost(host, `${link.pathname}${link.search}`);
  expect(page.body).toContain("Confirm your release alert");
  const done = await post(host, "/alerts/confirm", { token: link.searchParams.get("token") ?? "" });
  expect(done.status).toBe(200);
  expect(done.body).toContain("on the list");
}

beforeAll(async () => {
  s = await startTestServer();
  jane = await createAuthor(s);
  other = await createAuthor(s);
  const res = await s.api("/api/books", {
    method: "POST",
    cookie: jane.cookie,
    json: { title: "The Comet Year", author: "Jane", releaseDate: RELEASE },
  });
  bookId = (await res.json()).book.id;
});
afterAll(async () => {
  await s?.close();
});

describe("a book that is not out yet", () => {
  it("counts the days down and offers to tell the reader", async () => {
    const page = await s.onHost(`${jane.subdomain}.localhost`, "/book/the-comet-year");
    const days = daysUntil(RELEASE, new Date());
    expect(page.body).toContain(`Out on <time dateTime="${RELEASE}">14 March 2031</time> — in ${days} days`);
    expect(page.body).toContain("Tell me when it&#x27;s out");
    expect(page.body).toContain('action="/book/the-comet-year/alert"');
    // A CDN may keep it a minute, never serving it stale past midnight.
    expect(page.headers["cdn-cache-control"]).toBe("public, max-age=60");
    expect(daysUntil("2031-03-14", new Date("2031-03-13T23:59:59Z"))).toBe(1);
    expect(daysUntil("2031-03-14", new Date("2031-03-14T00:00:00Z"))).toBe(0);
  });

  it("takes sign-ups with double opt-in, and refuses a bad address with a message", async () => {
    const bad = await post(`${jane.subdomain}.localhost`, `/book/${bookId}/alert`, { email: "not-an-email" });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("Please enter a valid email address");
    await signUp("ada@example.com", true);
    await signUp("ben@example.com", true);
    await signUp("cy@example.com", false);
    // Asking twice changes nothing.
    await signUp("ada@example.com", false);
    const rows = await s.database.db.select().from(releaseAlerts).where(eq(releaseAlerts.bookId, bookId));
    expect(rows.map((r) => [r.email, r.status]).sort()).toEqual([
      ["ada@example.com", "confirmed"],
      ["ben@example.com", "confirmed"],
      ["cy@example.com", "pending"],
    ]);
    const link = await s.onHost(`${jane.subdomain}.localhost`, "/alerts/confirm?token=nope");
    expect(link.status).toBe(404);
  });

  it("shows the author the counts, and sends them a test; not to another author", async () => {
    const counts = await expectStatus(alerts(jane).$get({ param: { id: bookId } }), 200);
    expect(counts).toEqual({ releaseDate: RELEASE, preorder: true, pending: 1, confirmed: 2, notified: 0 });
    const test = await expectStatus(alerts(jane).test.$post({ param: { id: bookId } }), 200);
    expect(test.sentTo).toBe(jane.email);
    const mail = await s.smtp.waitFor(jane.email, "[Test] The Comet Year is out now");
    expect(mail.text).toContain("/book/the-comet-year\n");
    expect((await alerts(other).$get({ param: { id: bookId } })).status).toBe(404);
    expect((await alerts(other).test.$post({ param: { id: bookId } })).status).toBe(404);
  });
});

describe("release day", () => {
  it("mails each confirmed reader once, and nobody else", async () => {
    const deps = { db: s.database.db, mailer: s.mailer, logger: createLogger("silent") };
    expect(await sendLaunchDayMails(deps, new Date("2031-03-13T23:00:00Z"))).toBe(0);
    expect(await sendLaunchDayMails(deps, new Date("2031-03-14T00:10:00Z"))).toBe(2);
    expect(await sendLaunchDayMails(deps, new Date("2031-03-14T01:10:00Z"))).toBe(0);
    const ada = await s.smtp.waitFor("ada@example.com", "The Comet Year is out now");
    expect(ada.text).toContain(`http://${jane.subdomain}.localhost:${s.port}/book/the-comet-year\n`);
    // It has an unsubscribe link (for the author's later books), so it does not claim to be the last mail.
    expect(ada.text).toContain("You will get no other mail about this book.");
    expect(ada.text).not.toContain("only mail");
    expect(ada.text).toContain("Unsubscribe from release alerts");
    await s.smtp.waitFor("ben@example.com", "The Comet Year is out now");
    await s.mailer.idle();
    const out = s.smtp.mails.filter((m) => m.subject === "The Comet Year is out now");
    expect(out.map((m) => m.to[0]).sort()).toEqual(["ada@example.com", "ben@example.com"]);
    const outbox = await s.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, "The Comet Year is out now"));
    expect(outbox).toHaveLength(2);
    const counts = await expectStatus(alerts(jane).$get({ param: { id: bookId } }), 200);
    expect(counts).toMatchObject({ pending: 1, confirmed: 0, notified: 2 });
  });
});
