import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, newsletterSubscribers, newsletters } from "../../../db/schema/index.ts";
import { apiClient, type Caller, type Json, readJson } from "../../../testing/api-client.ts";
import { decodeWords, readMail } from "../../../testing/mail-message.ts";
import {
  addReaders as addReadersOf,
  draftOn,
  type NewsletterBody,
  newsletterJobDeps,
  runNewsletterJobOn,
  type SendBody,
  sendOn,
} from "../../../testing/newsletters.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";
import { copyMessageId, runNewsletterJob } from "./newsletters.service.ts";

const CAP = 60;
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(
    { NEWSLETTER_SEND_RATE: "5", NEWSLETTER_DAILY_CAP: String(CAP) },
    { mailDelivery: { retryDelaysMs: [150, 150, 150], pollMs: 150 } },
  );
});
afterAll(async () => {
  await s?.close();
});

/** Readers on the author's list, as the sign-up form and its link leave them. */
const addReaders = (a: TestAuthor, n: number, status = "confirmed") => addReadersOf(s, a, n, status);

const newslettersOf = (who: Caller) => apiClient(s, who).newsletters;
/** One newsletter as `who` reads it. */
const read = (who: Caller, id: string) => readJson(newslettersOf(who)[":id"].$get({ param: { id } }));
/** Sends it now (no `at`) or at a time to come. */
const send = (who: Caller, id: string, json?: SendBody) => sendOn(s, who, id, json);

const draft = (a: TestAuthor, body: Partial<NewsletterBody> = {}) =>
  draftOn(s, a, {
    subject: "News from the desk",
    content: '<p>Chapter three is done. <a href="https://example.com/x">Read it</a></p>',
    ...body,
  });

const copiesOf = (id: string) => s.database.db.select().from(mailOutbox).where(eq(mailOutbox.newsletterId, id));

/** How many messages the SMTP server accepted for each address. */
function acceptedBy(emails: string[]) {
  return emails.map((e) => s.smtp.mails.filter((m) => m.to.includes(e)).length);
}

async function settled(id: string) {
  await s.mailer.idle();
  const rows = await copiesOf(id);
  expect(rows.filter((r) => r.status === "queued" || r.status === "sending")).toEqual([]);
  return rows;
}

describe("newsletters: drafts", () => {
  it("are written, listed, read, changed and deleted; the body is cleaned like a post's", async () => {
    const a = await createAuthor(s);
    const n = await draft(a, { content: '<p>Hi</p><script>alert(1)</script><img src="x" onerror="y">' });
    expect(n).toMatchObject({ subject: "News from the desk", status: "draft", recipients: null, postId: null });
    expect(n.content).toBe('<p>Hi</p><img src="x" />');
    const list = await readJson(newslettersOf(a).$get());
    expect(list.body.newsletters.map((x: Json) => x.id)).toEqual([n.id]);
    const changed = await readJson(
      newslettersOf(a)[":id"].$patch({ param: { id: n.id }, json: { subject: "A better subject" } }),
    );
    expect(changed.status).toBe(200);
    expect(changed.body.newsletter.subject).toBe("A better subject");
    expect((await read(a, n.id)).body.newsletter.subject).toBe("A better subject");
    expect((await readJson(newslettersOf(a)[":id"].$delete({ param: { id: n.id } }))).status).toBe(204);
    expect((await read(a, n.id)).status).toBe(404);
  });

  it("refuse a blank subject or body with the product's message, and change nothing", async () => {
    const a = await createAuthor(s);
    for (const body of [
      { subject: "  ", content: "<p>x</p>" },
      { subject: "Hi", content: "<p> </p>" },
      { subject: "Hi", content: "<script>alert(1)</script>" },
    ]) {
      const res = await readJson(newslettersOf(a).$post({ json: body }));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe("Please fill in all fields");
    }
    const header = await readJson(
      newslettersOf(a).$post({
        json: {
          subject: "Hi\r\nBcc: x@example.com",
          content: "<p>x</p>",
        },
      }),
    );
    expect(header.status).toBe(400);
    expect(header.body.error.field).toBe("subject");
    expect((await readJson(newslettersOf(a).$get())).body.newsletters).toEqual([]);

    const n = await draft(a);
    const blank = await readJson(newslettersOf(a)[":id"].$patch({ param: { id: n.id }, json: { subject: "" } }));
    expect(blank.status).toBe(400);
    expect(blank.body.error).toMatchObject({ message: "Please fill in all fields", field: "subject" });
    expect((await read(a, n.id)).body.newsletter).toEqual(n);
  });

  it("send a test to the author's own address only", async () => {
    const a = await createAuthor(s);
    await addReaders(a, 2);
    const n = await draft(a, { subject: "Proof copy" });
    const res = await readJson(newslettersOf(a)[":id"].test.$post({ param: { id: n.id } }));
    expect(res.status).toBe(200);
    expect(res.body.sentTo).toBe(a.email);
    const mail = await s.smtp.waitFor(a.email, "[Test] Proof copy");
    expect(mail.raw).toContain("Chapter three is done.");
    expect(mail.raw).toContain(`${a.subdomain}.localhost`);
    await s.mailer.idle();
    expect(await copiesOf(n.id)).toEqual([]);
    expect((await read(a, n.id)).body.newsletter.status).toBe("draft");
  });
});

describe("newsletters: sending", () => {
  it("sends one copy to each confirmed reader, none to the others, with a stable Message-ID", async () => {
    const a = await createAuthor(s);
    const confirmed = await addReaders(a, 3);
    const pending = await addReaders(a, 1, "pending");
    const gone = await addReaders(a, 1, "unsubscribed");
    const n = await draft(a, { subject: "Out now", publishAsPost: true });
    const sent = await send(a, n.id);
    expect(sent.status).toBe(200);
    expect(sent.body.newsletter).toMatchObject({ status: "sending", recipients: 3 });
    expect(sent.body.newsletter.postId).toEqual(expect.any(String));

    const rows = await settled(n.id);
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
    expect(acceptedBy(confirmed)).toEqual([1, 1, 1]);
    expect(acceptedBy([...pending, ...gone])).toEqual([0, 0]);
    const one = s.smtp.mails.find((m) => m.to.includes(confirmed[0] as string));
    const row = rows.find((r) => r.to === confirmed[0]);
    const unfolded = one?.raw.replace(/\r?\n[ \t]+/g, " ");
    expect(unfolded).toContain(
      `Message-ID: ${copyMessageId(n.id, row?.subscriberId as string, "Bookplate <no-reply@bookplate.local>")}`,
    );
    expect(unfolded).toMatch(/Reply-To: .*<author-/);
    expect(one?.subject).toBe("Out now");

    // Queued again (a retried job, a second process): nobody gets a second copy.
    const again = await s.database.db.transaction((tx) =>
      s.mailer.queueNewsletter(tx, { newsletterId: n.id, userId: a.id, subject: "Out now" }),
    );
    expect(again).toBe(0);
    expect(await copiesOf(n.id)).toHaveLength(3);

    // Sent once: a second send, an edit, a cancel are refused.
    expect((await send(a, n.id)).status).toBe(409);
    expect(
      (await readJson(newslettersOf(a)[":id"].$patch({ param: { id: n.id }, json: { subject: "x" } }))).status,
    ).toBe(409);
    expect((await readJson(newslettersOf(a)[":id"].cancel.$post({ param: { id: n.id } }))).status).toBe(409);

    await runNewsletterJobOn(s, CAP);
    const done = (await read(a, n.id)).body.newsletter;
    expect(done.status).toBe("sent");
    expect(done.sentAt).toEqual(expect.any(String));
    const figures = await readJson(newslettersOf(a)[":id"].figures.$get({ param: { id: n.id } }));
    expect(figures.body).toEqual({
      sent: 3,
      accepted: 3,
      bounced: 0,
      unsubscribed: 0,
      waiting: 0,
      skipped: 0,
      links: [],
    });
    // Published on the blog too.
    const posts = await readJson(apiClient(s, a).posts.$get());
    expect(posts.body.posts.map((p: Json) => p.title)).toEqual(["Out now"]);

    // A reader who unsubscribes afterwards is counted.
    await s.database.db
      .update(newsletterSubscribers)
      .set({ status: "unsubscribed" })
      .where(eq(newsletterSubscribers.email, confirmed[1] as string));
    expect((await readJson(newslettersOf(a)[":id"].figures.$get({ param: { id: n.id } }))).body.unsubscribed).toBe(1);
  });

  it("goes from the author's name with the reader's one-click unsubscribe, which works at once", async () => {
    const a = await createAuthor(s);
    const [reader] = await addReaders(a, 1);
    const n = await draft(a, { subject: "Letter with a way out" });
    expect((await send(a, n.id)).status).toBe(200);
    await settled(n.id);
    const caught = s.smtp.mails.find((m) => m.to.includes(reader as string) && m.subject === "Letter with a way out");
    const mail = readMail(caught?.raw ?? "");
    expect(mail.type).toBe("multipart/alternative");
    expect(mail.part("text/html")?.body).toContain("Chapter three is done.");
    expect(mail.part("text/plain")?.body).toContain("Read it: https://example.com/x");
    // Written by a person: no Auto-Submitted; from the site's author at our address.
    expect(mail.header("auto-submitted")).toBe("");
    expect(decodeWords(mail.header("from"))).toContain("<no-reply@bookplate.local>");
    expect(mail.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const link = new URL(/^<(.+)>$/.exec(mail.header("list-unsubscribe"))?.[1] ?? "");
    expect(link.hostname).toBe(`${a.subdomain}.localhost`);
    expect(mail.part("text/html")?.body).toContain(link.pathname);

    const status = async () =>
      (
        await s.database.db
          .select({ status: newsletterSubscribers.status })
          .from(newsletterSubscribers)
          .where(eq(newsletterSubscribers.email, reader as string))
      )[0]?.status;
    // The mail program's one-click POST, no cookie: unsubscribed at once.
    const oneClick = await s.postOnHost(link.hostname, `${link.pathname}${link.search}`, {
      "List-Unsubscribe": "One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await status()).toBe("unsubscribed");
  });

  it("refuses a time in the past with a clear message and changes nothing; schedules, cancels, and the job sends it when due", async () => {
    const a = await createAuthor(s);
    const readers = await addReaders(a, 2);
    const n = await draft(a, { subject: "Scheduled news" });
    const past = await send(a, n.id, { at: new Date(Date.now() - 60_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({
      field: "at",
      message: "Choose a time in the future to send it, or send it now.",
    });
    const bad = await send(a, n.id, { at: "tomorrow" });
    expect(bad.status).toBe(400);
    expect((await read(a, n.id)).body.newsletter).toEqual(n);

    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await send(a, n.id, { at });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.newsletter).toMatchObject({ status: "scheduled", scheduledAt: at });
    const cancelled = await readJson(newslettersOf(a)[":id"].cancel.$post({ param: { id: n.id } }));
    expect(cancelled.body.newsletter).toMatchObject({ status: "draft", scheduledAt: null });
    expect(await copiesOf(n.id)).toEqual([]);

    await send(a, n.id, { at });
    const deps = newsletterJobDeps(s, CAP);
    // Not due yet: the job leaves it.
    await runNewsletterJob(deps);
    expect(await copiesOf(n.id)).toEqual([]);
    // Its time comes.
    await s.database.db
      .update(newsletters)
      .set({ scheduledAt: sql`now() - interval '1 second'` })
      .where(eq(newsletters.id, n.id));
    const [first, second] = await Promise.all([runNewsletterJob(deps), runNewsletterJob(deps)]);
    expect((first?.started ?? 0) + (second?.started ?? 0)).toBe(1);
    await settled(n.id);
    expect(acceptedBy(readers)).toEqual([1, 1]);
  });

  it("skips a reader who unsubscribed while their copy waited, and suppresses an address that bounced", async () => {
    const a = await createAuthor(s);
    const [stays, leaves] = await addReaders(a, 2);
    const n = await draft(a, { subject: "Skip test" });
    // Queued but not due yet, as if far back in a long send.
    await s.database.db.transaction(async (tx) => {
      await s.mailer.queueNewsletter(tx, { newsletterId: n.id, userId: a.id, subject: "Skip test" });
      await tx
        .update(mailOutbox)
        .set({ nextAttemptAt: sql`now() + interval '1 hour'` })
        .where(eq(mailOutbox.newsletterId, n.id));
    });
    await s.database.db
      .update(newsletterSubscribers)
      .set({ status: "unsubscribed" })
      .where(eq(newsletterSubscribers.email, leaves as string));
    await s.database.db.update(mailOutbox).set({ nextAttemptAt: sql`now()` }).where(eq(mailOutbox.newsletterId, n.id));
    const rows = await settled(n.id);
    expect(Object.fromEntries(rows.map((r) => [r.to, r.status]))).toEqual({
      [stays as string]: "sent",
      [leaves as string]: "skipped",
    });
    expect(acceptedBy([stays as string, leaves as string])).toEqual([1, 0]);

    // A permanent refusal (5xx): the reader is marked bounced, and the next newsletter skips them.
    const b = await createAuthor(s);
    const [bouncer] = await addReaders(b, 1);
    const first = await draft(b, { subject: "Bounce one" });
    s.smtp.refuse(550);
    try {
      expect((await send(b, first.id)).status).toBe(200);
      const failed = await settled(first.id);
      expect(failed.map((r) => r.status)).toEqual(["failed"]);
    } finally {
      s.smtp.refuse(null);
    }
    const [reader] = await s.database.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, bouncer as string));
    expect(reader?.status).toBe("bounced");
    expect((await readJson(newslettersOf(b)[":id"].figures.$get({ param: { id: first.id } }))).body).toMatchObject({
      sent: 1,
      accepted: 0,
      bounced: 1,
    });
    const second = await draft(b, { subject: "Bounce two" });
    const refused = await send(b, second.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("You have no confirmed subscribers yet: nobody would receive it.");
    const list = await readJson(apiClient(s, b).newsletter.subscribers.$get({ query: {} }));
    expect(list.status).toBe(200);
    expect(list.body.subscribers[0].status).toBe("bounced");
  });

  it("keeps to the day's cap (nothing queued over it), and a reset mail does not wait behind a newsletter", async () => {
    const a = await createAuthor(s);
    await addReaders(a, 40);
    const big = await draft(a, { subject: "Big send" });
    expect((await send(a, big.id)).status).toBe(200);

    // 40 copies at 5 a second take 8 s; other mail goes meanwhile.
    const started = Date.now();
    await s.mailer.send({ to: "urgent@example.com", subject: "Reset your password", text: "Link" });
    await s.smtp.waitFor("urgent@example.com", "Reset your password", 5_000);
    expect(Date.now() - started).toBeLessThan(3_000);
    const waiting = (await copiesOf(big.id)).filter((r) => r.status === "queued").length;
    expect(waiting).toBeGreaterThan(20);

    const over = await draft(a, { subject: "One too many" });
    const refused = await send(a, over.id);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("sending_limit_reached");
    expect(refused.body.error.message).toContain("60 newsletter mails in 24 hours");
    const later = await send(a, over.id, { at: new Date(Date.now() + 60_000).toISOString() });
    expect(later.status).toBe(429);
    expect((await read(a, over.id)).body.newsletter.status).toBe("draft");
    expect(await copiesOf(over.id)).toEqual([]);
    await settled(big.id);
  }, 60_000);
});

describe("newsletters: another author", () => {
  it("can neither read, change, send, cancel, delete nor see the figures of one", async () => {
    const owner = await createAuthor(s);
    const other = await createAuthor(s);
    await addReaders(owner, 1);
    await addReaders(other, 1);
    const n = await draft(owner, { subject: "Mine" });
    const scheduled = await draft(owner, { subject: "Mine later" });
    await send(owner, scheduled.id, { at: new Date(Date.now() + 3_600_000).toISOString() });
    const before = (await readJson(newslettersOf(owner).$get())).body.newsletters;

    const theirs = newslettersOf(other)[":id"];
    const param = { id: n.id };
    const tries: [string, () => Promise<Response>][] = [
      ["GET", () => theirs.$get({ param })],
      ["PATCH", () => theirs.$patch({ param, json: { subject: "Theirs now" } })],
      ["DELETE", () => theirs.$delete({ param })],
      ["POST test", () => theirs.test.$post({ param })],
      ["POST send", () => theirs.send.$post({ param, json: {} })],
      ["POST cancel", () => theirs.cancel.$post({ param: { id: scheduled.id } })],
      ["GET figures", () => theirs.figures.$get({ param })],
    ];
    for (const [what, call] of tries) {
      const res = await readJson(call());
      expect(res.status, what).toBe(404);
      expect(res.body.error.message).toBe("Newsletter not found");
    }
    expect((await readJson(newslettersOf(other).$get())).body.newsletters).toEqual([]);
    expect((await readJson(newslettersOf(owner).$get())).body.newsletters).toEqual(before);
    await s.mailer.idle();
    expect(await copiesOf(n.id)).toEqual([]);
    expect(s.smtp.mails.filter((m) => m.subject.includes("Mine"))).toEqual([]);
    // Nobody signed in: nothing at all.
    expect((await readJson(newslettersOf({ cookie: "" }).$get())).status).toBe(401);
    expect((await send({ cookie: "" }, n.id)).status).toBe(401);
    const rows = await s.database.db
      .select()
      .from(newsletters)
      .where(and(eq(newsletters.userId, owner.id)));
    expect(rows.map((r) => r.status).sort()).toEqual(["draft", "scheduled"]);
  });
});
