// Release alerts in the paced lane (issue 32, ADR 073), through the real outbox and a real SMTP
// server: one outbox row per reader per launch, queued in the launch's own transaction and never
// twice; a 4xx tried again; a 5xx marks the address bounced on the author's site, and it is never
// mailed (nor asked to confirm) again; a paused account's launch waits and its queued mails are
// held until staff resume it; the mails count in the back office's figures but not in the
// newsletters' daily cap; one author's launch never reaches another's readers.
import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, newsletterSubscribers, releaseAlerts } from "../../../db/schema/index.ts";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import { readMail } from "../../../testing/mail-message.ts";
import { draftOn, sendOn } from "../../../testing/newsletters.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, createStaff, type TestAuthor, type TestUser } from "../../../testing/users.ts";
import { createLogger } from "../../lib/logger.ts";
import { unsubscribeUrl } from "../mail/unsubscribe.service.ts";
import { makeReleaseAlertCopy, sendLaunchDayMails } from "./launches.service.ts";

const onPostgres = Boolean(process.env.DATABASE_URL);
const RELEASE = "2031-05-01";
const LAUNCH_DAY = new Date(`${RELEASE}T00:10:00Z`);

let s: TestServer;
let staff: TestUser;
beforeAll(async () => {
  s = await startTestServer(
    { NEWSLETTER_SEND_RATE: "50", NEWSLETTER_DAILY_CAP: "3" },
    { mailDelivery: { retryDelaysMs: [150, 150, 150], pollMs: 150 } },
  );
  ({ admin: staff } = await createStaff(s, "alertlane-"));
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const deps = () => ({ db: s.database.db, mailer: s.mailer, logger: createLogger("silent") });
const launch = () => sendLaunchDayMails(deps(), LAUNCH_DAY);

let seq = 0;
async function book(a: TestAuthor, title: string): Promise<string> {
  const res = await s.api("/api/books", {
    method: "POST",
    cookie: a.cookie,
    json: { title, author: a.name, releaseDate: RELEASE },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { book: { id: string } }).book.id;
}
/** Readers who asked for the book and confirmed (made directly: the form is launches.test.ts's). */
async function readers(a: TestAuthor, bookId: string, n: number, emails?: string[]): Promise<string[]> {
  const list = emails ?? Array.from({ length: n }, () => `lane-${seq++}-${a.subdomain}@example.com`);
  await s.database.db.insert(releaseAlerts).values(
    list.map((email) => ({
      userId: a.id,
      bookId,
      email,
      status: "confirmed",
      confirmToken: randomBytes(18).toString("base64url"),
      confirmedAt: new Date(),
    })),
  );
  return list;
}
const rowsOf = async (bookId: string) => {
  const ids = (
    await s.database.db.select({ id: releaseAlerts.id }).from(releaseAlerts).where(eq(releaseAlerts.bookId, bookId))
  ).map((r) => r.id);
  return ids.length === 0 ? [] : s.database.db.select().from(mailOutbox).where(inArray(mailOutbox.releaseAlertId, ids));
};
const received = (emails: string[], subject: string) =>
  emails.map((e) => s.smtp.mails.filter((m) => m.to.includes(e) && m.subject === subject).length);
async function until(what: string, check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never: ${what}`);
}
const statusesOf = async (a: TestAuthor, email: string) =>
  (
    await s.database.db
      .select({ status: releaseAlerts.status })
      .from(releaseAlerts)
      .where(and(eq(releaseAlerts.userId, a.id), eq(releaseAlerts.email, email)))
  ).map((r) => r.status);
/** The statuses of the author's newsletter readers with exactly this address. */
const subscriberStatusesOf = async (a: TestAuthor, email: string) =>
  (
    await s.database.db
      .select({ status: newsletterSubscribers.status })
      .from(newsletterSubscribers)
      .where(and(eq(newsletterSubscribers.userId, a.id), eq(newsletterSubscribers.email, email)))
  ).map((r) => r.status);
const figures = async (a: TestAuthor) =>
  (await readJson(apiClient(s, staff).admin.users[":id"]["newsletter-sending"].$get({ param: { id: a.id } }))).body;
const pause = async (a: TestAuthor, paused: boolean) =>
  expect(
    (
      await readJson(
        apiClient(s, staff).admin.users[":id"]["newsletter-sending"].$post({
          param: { id: a.id },
          json: { paused, reason: paused ? "Checking a complaint" : "Checked" },
        }),
      )
    ).status,
  ).toBe(200);

describe("a launch in the paced lane", () => {
  it("queues one row per reader in one transaction, never twice, and each reader gets one mail", async () => {
    const a = await createAuthor(s, { name: "Lane Author" });
    const id = await book(a, "The Paced Book");
    const list = await readers(a, id, 4);
    // One who asked and never confirmed, one who left: neither is queued.
    await s.database.db.insert(releaseAlerts).values(
      ["pending", "unsubscribed"].map((status) => ({
        userId: a.id,
        bookId: id,
        email: `lane-${status}-${a.subdomain}@example.com`,
        status,
        confirmToken: randomBytes(18).toString("base64url"),
      })),
    );
    expect(await sendLaunchDayMails(deps(), new Date("2031-04-30T23:50:00Z"))).toBe(0);
    expect(await launch()).toBe(4);
    expect(await launch()).toBe(0);
    await s.mailer.idle();
    const rows = await rowsOf(id);
    expect(rows).toHaveLength(4);
    // The paced lane's rows: who and which only; the mail is made when it goes.
    expect(rows.every((r) => r.releaseAlertId !== null && r.newsletterId === null && r.text === "")).toBe(true);
    expect(rows.map((r) => r.status)).toEqual(rows.map(() => "sent"));
    expect(received(list, "The Paced Book is out now")).toEqual([1, 1, 1, 1]);
    const mail = readMail(s.smtp.mails.find((m) => m.to.includes(list[0] ?? ""))?.raw ?? "");
    // The same one-click unsubscribe as before, and a Message-ID of its own, stable across attempts.
    expect(mail.header("list-unsubscribe")).toMatch(/^<http:\/\/.+\/unsubscribe\?token=a\./);
    expect(mail.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(mail.header("auto-submitted")).toBe("auto-generated");
    expect(mail.header("message-id")).toMatch(/^<launch-[0-9a-f-]{36}@/);
    expect(await readJson(apiClient(s, a).books[":id"]["release-alerts"].$get({ param: { id } }))).toMatchObject({
      status: 200,
      body: { confirmed: 0, notified: 4, pending: 1 },
    });
  });

  it("a reader who unsubscribes after the launch was queued is skipped", async () => {
    const a = await createAuthor(s);
    const id = await book(a, "The Skipped One");
    const [gone] = await readers(a, id, 1);
    // Held (paused) while queued, so the reader can leave before it goes.
    await pause(a, true);
    await s.database.db.transaction((tx) =>
      s.mailer.queueReleaseAlerts(tx, { bookId: id, userId: a.id, subject: "The Skipped One is out now" }),
    );
    await s.database.db.update(releaseAlerts).set({ status: "unsubscribed" }).where(eq(releaseAlerts.bookId, id));
    await pause(a, false);
    await until("settled", async () => (await rowsOf(id))[0]?.status === "skipped");
    expect(received([gone ?? ""], "The Skipped One is out now")).toEqual([0]);
  });

  it("a 4xx is tried again after its back-off, and the reader gets one mail", async () => {
    const a = await createAuthor(s);
    const id = await book(a, "The Patient Book");
    const list = await readers(a, id, 1);
    s.smtp.refuse(451);
    try {
      expect(await launch()).toBe(1);
      await until("the 4xx recorded", async () => (await rowsOf(id))[0]?.error?.includes("Try again later") === true);
    } finally {
      s.smtp.refuse(null);
    }
    await until("sent", async () => (await rowsOf(id))[0]?.status === "sent");
    expect((await rowsOf(id))[0]?.attempts).toBeGreaterThanOrEqual(2);
    expect(received(list, "The Patient Book is out now")).toEqual([1]);
  });

  it("a 5xx marks the address bounced on the author's site: never mailed, nor asked to confirm, again", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const first = await book(a, "The Bounced Book");
    const second = await book(a, "The Next Book");
    const elsewhere = await book(b, "Another Author's Book");
    const bad = `lane-bad-${a.subdomain}@example.com`;
    await readers(a, first, 0, [bad]);
    // The same address waits for the author's next book, and for another author's.
    await readers(a, second, 0, [bad]);
    await readers(b, elsewhere, 0, [bad]);
    const settled = async (bookId: string) =>
      (await rowsOf(bookId)).every((r) => !["queued", "sending"].includes(r.status));
    s.smtp.refuse(550);
    try {
      expect(await launch()).toBe(3);
      await until("all settled", async () => (await settled(first)) && (await settled(second)) && settled(elsewhere));
    } finally {
      s.smtp.refuse(null);
    }
    expect(await statusesOf(a, bad)).toEqual(["bounced", "bounced"]);
    expect(await statusesOf(b, bad)).toEqual(["bounced"]);
    // Of the author's two mails to it, one bounced; the other, made after the bounce, is skipped.
    const mine = [...(await rowsOf(first)), ...(await rowsOf(second))].map((r) => r.status);
    expect(mine.sort()).toEqual(["failed", "skipped"]);
    // Signing up again: the same answer, no mail to the address, still bounced.
    const third = await book(a, "The Third Book");
    const before = s.smtp.mails.length;
    const again = await s.postOnHost(`${a.subdomain}.localhost`, "/book/the-third-book/alert", { email: bad });
    expect(again.status).toBe(200);
    expect(again.body).toContain("Check your inbox");
    await s.mailer.idle();
    expect(s.smtp.mails.slice(before).filter((m) => m.to.includes(bad))).toHaveLength(0);
    expect(await launch()).toBe(0);
    expect((await rowsOf(third)).length).toBe(0);
    // Unsubscribing through its link does not make it an address that may sign up again.
    const [alert] = await s.database.db
      .select({ id: releaseAlerts.id })
      .from(releaseAlerts)
      .where(eq(releaseAlerts.bookId, first));
    const link = new URL(
      unsubscribeUrl(s.unsubscribeKey, `http://${a.subdomain}.localhost`, {
        list: "alerts",
        userId: a.id,
        subscriberId: alert?.id ?? "",
      }),
    );
    const one = await s.postOnHost(`${a.subdomain}.localhost`, `${link.pathname}${link.search}`, {
      "List-Unsubscribe": "One-Click",
    });
    expect(one.status).toBe(200);
    expect(await statusesOf(a, bad)).toEqual(["bounced", "bounced"]);
    // The back office counts it: staff see the bounce.
    expect(await figures(a)).toMatchObject({ sent: 0, bounced: 1, waiting: 0 });
    expect((await figures(b)).bounced).toBe(1);
  });

  it("a 5xx on either list marks the address bounced on the author's other list too, and nobody else's", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const onList = async (who: TestAuthor, email: string, status: string) =>
      s.database.db.insert(newsletterSubscribers).values({
        userId: who.id,
        email,
        status,
        confirmToken: randomBytes(18).toString("base64url"),
        confirmedAt: status === "confirmed" ? new Date() : null,
      });

    // A release mail bounces: the author's newsletter reader with that address (in another case)
    // is bounced, another author's is not.
    const gone = `Cross-Gone-${a.subdomain}@example.com`;
    const id = await book(a, "The Cross Book");
    await readers(a, id, 0, [gone]);
    await onList(a, gone.toLowerCase(), "confirmed");
    await onList(b, gone, "confirmed");
    s.smtp.refuse(550);
    try {
      expect(await launch()).toBe(1);
      await until("bounced", async () => (await rowsOf(id)).every((r) => r.status === "failed"));
    } finally {
      s.smtp.refuse(null);
    }
    expect(await subscriberStatusesOf(a, gone.toLowerCase())).toEqual(["bounced"]);
    expect(await subscriberStatusesOf(b, gone)).toEqual(["confirmed"]);

    // A newsletter copy bounces: the author's alerts for that address (every book, pending or
    // confirmed) are bounced and its launch mails nobody; another author's alert stays.
    const lost = `cross-lost-${a.subdomain}@example.com`;
    await onList(a, lost, "confirmed");
    const next = await book(a, "The Cross Sequel");
    await readers(a, next, 0, [lost]);
    await s.database.db.insert(releaseAlerts).values({
      userId: a.id,
      bookId: id,
      email: lost.toUpperCase(),
      status: "pending",
      confirmToken: randomBytes(18).toString("base64url"),
    });
    const elsewhere = await book(b, "Not Cross At All");
    await readers(b, elsewhere, 0, [lost]);
    const n = await draftOn(s, a, { subject: "Cross news", content: "<p>News</p>" });
    s.smtp.refuse(550);
    try {
      expect((await sendOn(s, a, n.id)).status).toBe(200);
      await until("the copies settled", async () => {
        const rows = await s.database.db.select().from(mailOutbox).where(eq(mailOutbox.newsletterId, n.id));
        return rows.length > 0 && rows.every((r) => !["queued", "sending"].includes(r.status));
      });
    } finally {
      s.smtp.refuse(null);
    }
    expect(await statusesOf(a, lost)).toEqual(["bounced"]);
    expect(await statusesOf(a, lost.toUpperCase())).toEqual(["bounced"]);
    expect(await statusesOf(b, lost)).toEqual(["confirmed"]);
    expect(await subscriberStatusesOf(a, lost)).toEqual(["bounced"]);
    // The launches: the author's sequel mails nobody; the other author's reader still gets theirs.
    expect(await launch()).toBe(1);
    await until("sent", async () => (await rowsOf(elsewhere)).every((r) => r.status === "sent"));
    expect((await rowsOf(next)).length).toBe(0);
  });

  it("a paused account's launch waits, queued mails are held, and all go once when resumed", async () => {
    const a = await createAuthor(s);
    const id = await book(a, "The Held Book");
    const list = await readers(a, id, 2);
    await pause(a, true);
    expect(await launch()).toBe(0);
    const told = await s.database.db
      .select()
      .from(releaseAlerts)
      .where(and(eq(releaseAlerts.bookId, id), isNotNull(releaseAlerts.notifiedAt)));
    expect(told).toHaveLength(0);
    // Mails queued before the pause came (queued here directly) are held, not sent, skipped or failed.
    const later = await book(a, "The Held Sequel");
    const sequel = await readers(a, later, 1);
    await s.database.db.transaction((tx) =>
      s.mailer.queueReleaseAlerts(tx, { bookId: later, userId: a.id, subject: "The Held Sequel is out now" }),
    );
    await new Promise((r) => setTimeout(r, 600));
    await s.mailer.idle();
    expect((await rowsOf(later)).map((r) => r.status)).toEqual(["queued"]);
    expect(await figures(a)).toMatchObject({ sent: 0, waiting: 1 });
    await pause(a, false);
    // The sequel's reader was queued already: the launch adds nobody twice.
    expect(await launch()).toBe(2);
    await until("all sent", async () =>
      [...(await rowsOf(id)), ...(await rowsOf(later))].every((r) => r.status === "sent"),
    );
    expect(received(list, "The Held Book is out now")).toEqual([1, 1]);
    expect(received(sequel, "The Held Sequel is out now")).toEqual([1]);
    expect(await figures(a)).toMatchObject({ sent: 3, bounced: 0, waiting: 0 });
  });

  it("does not count in the newsletters' daily cap, and goes past it", async () => {
    const a = await createAuthor(s);
    const id = await book(a, "The Big Launch");
    // Five readers: over the cap of 3, which is the newsletters'.
    const list = await readers(a, id, 5);
    expect(await launch()).toBe(5);
    await until("sent", async () => (await rowsOf(id)).every((r) => r.status === "sent"));
    expect(received(list, "The Big Launch is out now")).toEqual([1, 1, 1, 1, 1]);
    await s.database.db.insert(newsletterSubscribers).values(
      Array.from({ length: 3 }, (_, i) => ({
        userId: a.id,
        email: `lane-cap-${i}-${a.subdomain}@example.com`,
        status: "confirmed",
        confirmToken: randomBytes(18).toString("base64url"),
      })),
    );
    const draft = await readJson(
      apiClient(s, a).newsletters.$post({ json: { subject: "Launch week", content: "<p>It is out.</p>" } }),
    );
    const sent = await readJson(
      apiClient(s, a).newsletters[":id"].send.$post({ param: { id: draft.body.newsletter.id }, json: {} }),
    );
    expect(sent.status).toBe(200);
  });

  it("one author's launch reaches their own readers only, and no author reads or tests another's", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    const mine = await book(a, "Mine Alone");
    const theirs = await book(b, "Theirs Alone");
    const aReaders = await readers(a, mine, 2);
    const bReaders = await readers(b, theirs, 1);
    expect(await launch()).toBe(3);
    await s.mailer.idle();
    expect(received(aReaders, "Mine Alone is out now")).toEqual([1, 1]);
    expect(received(bReaders, "Mine Alone is out now")).toEqual([0]);
    expect(received(aReaders, "Theirs Alone is out now")).toEqual([0, 0]);
    const alertsAsB = apiClient(s, b).books[":id"]["release-alerts"];
    expect((await alertsAsB.$get({ param: { id: mine } })).status).toBe(404);
    expect((await alertsAsB.test.$post({ param: { id: mine } })).status).toBe(404);
    // The test mail went nowhere near A's readers or A.
    expect(s.smtp.mails.filter((m) => m.subject.includes("[Test] Mine Alone"))).toHaveLength(0);
  });

  it("made on a later day than the release, says when the book came out", async () => {
    const a = await createAuthor(s, { name: "Late Author" });
    const id = await book(a, "The Late Book");
    await readers(a, id, 1);
    const [alert] = await s.database.db.select().from(releaseAlerts).where(eq(releaseAlerts.bookId, id));
    const copy = makeReleaseAlertCopy(
      s.database.db,
      site(),
      "Bookplate <x@bookplate.test>",
      s.unsubscribeKey,
      () => new Date("2031-05-09T10:00:00Z"),
    );
    const late = await copy({ alertId: alert?.id ?? "" });
    expect(late?.text).toContain("The Late Book by Late Author came out on 1 May 2031.");
    expect(late?.messageId).toBe(`<launch-${alert?.id}@bookplate.test>`);
    const onTime = await makeReleaseAlertCopy(
      s.database.db,
      site(),
      "x@bookplate.test",
      s.unsubscribeKey,
      () => LAUNCH_DAY,
    )({
      alertId: alert?.id ?? "",
    });
    expect(onTime?.text).toContain("The Late Book by Late Author is out today.");
    // Told, so no later launch in this file finds it waiting.
    expect(await launch()).toBe(1);
    await s.mailer.idle();
  });
});

const site = () => ({ protocol: "http:", sitesDomain: "localhost" });

describe.skipIf(!onPostgres)("a launch with two servers on one PostgreSQL", () => {
  let b: TestServer;
  beforeAll(async () => {
    if (s.databaseUrl) b = await startTestServer({ NEWSLETTER_SEND_RATE: "100" }, { sharedDatabaseUrl: s.databaseUrl });
  });
  afterAll(async () => {
    await b?.close();
  });

  it("is queued once when both run it at once, and both senders share it, one mail per reader", async () => {
    const a = await createAuthor(s);
    const id = await book(a, "The Shared Launch");
    const list = await readers(a, id, 40);
    const other = { db: b.database.db, mailer: b.mailer, logger: createLogger("silent") };
    const [one, two] = await Promise.all([launch(), sendLaunchDayMails(other, LAUNCH_DAY)]);
    expect((one ?? 0) + (two ?? 0)).toBe(40);
    for (let i = 0; i < 200; i++) {
      await Promise.all([s.mailer.idle(), b.mailer.idle()]);
      if ((await rowsOf(id)).every((r) => r.status === "sent")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const rows = await rowsOf(id);
    expect(rows).toHaveLength(40);
    expect(rows.map((r) => r.attempts)).toEqual(rows.map(() => 1));
    expect(received(list, "The Shared Launch is out now")).toEqual(list.map(() => 1));
  });
});
