import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminAuditLog, mailOutbox, newsletters } from "../../../db/schema/index.ts";
import { apiClient, type Caller, callApi, type Json, readJson } from "../../../testing/api-client.ts";
import { addReaders as addReadersTo, runNewsletterJobOn } from "../../../testing/newsletters.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, createStaff, type TestAuthor, type TestUser } from "../../../testing/users.ts";

let s: TestServer;
let staff: TestUser;
let boss: TestUser;
beforeAll(async () => {
  s = await startTestServer(
    { NEWSLETTER_SEND_RATE: "50", NEWSLETTER_DAILY_CAP: "100" },
    { mailDelivery: { retryDelaysMs: [150, 150, 150], pollMs: 150 } },
  );
  ({ admin: staff, superAdmin: boss } = await createStaff(s, "nlpause-"));
});
afterAll(async () => {
  await s?.close();
});

const PAUSED = "Sending is paused for your account. Please contact support.";
/** An account's newsletter sending in the back office, as `caller`. */
const sending = (caller: Caller) => apiClient(s, caller).admin.users[":id"]["newsletter-sending"];
/** The status of `caller` pausing (or resuming) account `id`'s sending, with `reason`. */
const pauseStatus = async (caller: Caller, id: string, paused: boolean, reason: string) =>
  (await readJson(sending(caller).$post({ param: { id }, json: { paused, reason } }))).status;

const addReaders = (a: TestAuthor, n: number) => addReadersTo(s, a, n);

async function draft(a: TestAuthor, subject = "News from the desk"): Promise<string> {
  const res = await readJson(
    apiClient(s, a).newsletters.$post({ json: { subject, content: "<p>Chapter three is done.</p>" } }),
  );
  expect(res.status).toBe(201);
  return res.body.newsletter.id as string;
}

const copiesOf = (id: string) => s.database.db.select().from(mailOutbox).where(eq(mailOutbox.newsletterId, id));
const received = (emails: string[]) => emails.map((e) => s.smtp.mails.filter((m) => m.to.includes(e)).length);
const auditRows = () =>
  s.database.db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id));

describe("an account's newsletter sending in the back office", () => {
  it("shows copies sent and bounced in the last 30 days, the bounce rate and the last send", async () => {
    const a = await createAuthor(s);
    const empty = await readJson(sending(staff).$get({ param: { id: a.id } }));
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      days: 30,
      sent: 0,
      bounced: 0,
      bounceRatePercent: null,
      waiting: 0,
      lastSentAt: null,
      paused: null,
    });

    // One reader's server refuses for good (5xx): bounced.
    await addReaders(a, 1);
    const first = await draft(a, "Bounces");
    s.smtp.refuse(550);
    try {
      expect(
        (await readJson(apiClient(s, a).newsletters[":id"].send.$post({ param: { id: first }, json: {} }))).status,
      ).toBe(200);
      await s.mailer.idle();
    } finally {
      s.smtp.refuse(null);
    }
    // Three more readers take the next one.
    const readers = await addReaders(a, 3);
    const second = await draft(a, "Goes");
    expect(
      (await readJson(apiClient(s, a).newsletters[":id"].send.$post({ param: { id: second }, json: {} }))).status,
    ).toBe(200);
    await s.mailer.idle();
    expect(received(readers)).toEqual([1, 1, 1]);

    const res = await readJson(sending(boss).$get({ param: { id: a.id } }));
    expect(res.body).toMatchObject({ days: 30, sent: 3, bounced: 1, bounceRatePercent: 25, waiting: 0, paused: null });
    expect(Date.now() - Date.parse(res.body.lastSentAt)).toBeLessThan(60_000);
    // No complaint is tracked, so none is shown.
    expect(res.body).not.toHaveProperty("complaints");
  });

  it("is staff's only: an author sees no one's figures and cannot pause or resume anyone, themselves included", async () => {
    const a = await createAuthor(s);
    const other = await createAuthor(s);
    const before = (await auditRows()).length;
    expect((await readJson(sending(a).$get({ param: { id: a.id } }))).status).toBe(403);
    expect((await readJson(sending(a).$get({ param: { id: other.id } }))).status).toBe(403);
    expect(await pauseStatus(a, a.id, true, "me")).toBe(403);
    expect(await pauseStatus(a, other.id, true, "them")).toBe(403);
    expect((await readJson(sending({ cookie: "" }).$get({ param: { id: a.id } }))).status).toBe(401);
    expect(await pauseStatus({ cookie: "" }, a.id, true, "x")).toBe(401);
    expect((await readJson(sending(staff).$get({ param: { id: "no-such-user" } }))).status).toBe(404);
    expect(await pauseStatus(staff, "no-such-user", true, "x")).toBe(404);
    expect((await auditRows()).length).toBe(before);
    expect((await readJson(sending(staff).$get({ param: { id: a.id } }))).body.paused).toBeNull();
    expect((await readJson(sending(staff).$get({ param: { id: other.id } }))).body.paused).toBeNull();
  });

  it("pauses with a reason and one audit row; refuses no reason, twice, yourself, or a super admin as admin", async () => {
    const a = await createAuthor(s);
    const before = (await auditRows()).length;
    for (const body of [{ paused: true }, { paused: "yes", reason: "x" }]) {
      // Wrong shapes on purpose, which the typed client refuses to send.
      const res = await callApi(s, staff, "POST", `/api/admin/users/${a.id}/newsletter-sending`, body);
      expect(res.status).toBe(400);
    }
    expect(await pauseStatus(staff, a.id, true, "   ")).toBe(400);
    expect(
      (await readJson(sending(staff).$post({ param: { id: a.id }, json: { paused: true, reason: " " } }))).body.error
        .message,
    ).toBe("Reason is required");
    expect(await pauseStatus(staff, a.id, false, "x")).toBe(409);
    expect(await pauseStatus(staff, staff.id, true, "x")).toBe(409);
    expect(await pauseStatus(staff, boss.id, true, "x")).toBe(403);
    expect((await auditRows()).length).toBe(before);

    const paused = await readJson(
      sending(staff).$post({ param: { id: a.id }, json: { paused: true, reason: "Bounce rate 40%" } }),
    );
    expect(paused.status).toBe(200);
    expect(paused.body.paused).toMatchObject({ reason: "Bounce rate 40%", at: expect.any(String) });
    const rows = await auditRows();
    expect(rows.length).toBe(before + 1);
    expect(rows[0]).toMatchObject({
      actorId: staff.id,
      action: "newsletter_sending_paused",
      targetUserId: a.id,
      target: a.email,
      detail: "Bounce rate 40%",
    });
    const again = await readJson(
      sending(staff).$post({ param: { id: a.id }, json: { paused: true, reason: "again" } }),
    );
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("Sending is already paused for this account.");
    expect((await auditRows()).length).toBe(before + 1);

    const resumed = await readJson(
      sending(boss).$post({ param: { id: a.id }, json: { paused: false, reason: "Cleaned their list" } }),
    );
    expect(resumed.status).toBe(200);
    expect(resumed.body.paused).toBeNull();
    const after = await auditRows();
    expect(after.length).toBe(before + 2);
    expect(after[0]).toMatchObject({
      actorId: boss.id,
      action: "newsletter_sending_resumed",
      detail: "Cleaned their list",
    });
  });

  it("refuses a paused author's send and schedule with words they understand, and queues nothing", async () => {
    const a = await createAuthor(s);
    await addReaders(a, 2);
    const id = await draft(a);
    expect((await readJson(apiClient(s, a).newsletters.$get())).body.sendingPaused).toBe(false);
    await readJson(sending(staff).$post({ param: { id: a.id }, json: { paused: true, reason: "Complaints" } }));
    expect((await readJson(apiClient(s, a).newsletters.$get())).body.sendingPaused).toBe(true);

    const now = await readJson(apiClient(s, a).newsletters[":id"].send.$post({ param: { id }, json: {} }));
    expect(now.status).toBe(403);
    expect(now.body.error.message).toBe(PAUSED);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const later = await readJson(apiClient(s, a).newsletters[":id"].send.$post({ param: { id }, json: { at } }));
    expect(later.status).toBe(403);
    expect(later.body.error.message).toBe(PAUSED);
    expect(await copiesOf(id)).toEqual([]);
    expect((await readJson(apiClient(s, a).newsletters[":id"].$get({ param: { id } }))).body.newsletter).toMatchObject({
      status: "draft",
      scheduledAt: null,
    });
    // Another author is not touched by it.
    const b = await createAuthor(s);
    await addReaders(b, 1);
    expect(
      (await readJson(apiClient(s, b).newsletters[":id"].send.$post({ param: { id: await draft(b) }, json: {} })))
        .status,
    ).toBe(200);
    expect((await readJson(apiClient(s, b).newsletters.$get())).body.sendingPaused).toBe(false);
  });

  it("holds copies already queued while paused, and sends each once when resumed", async () => {
    const a = await createAuthor(s);
    const readers = await addReaders(a, 3);
    const id = await draft(a, "Held back");
    // Queued but not due yet, as if far back in a long send.
    await s.database.db.transaction(async (tx) => {
      await s.mailer.queueNewsletter(tx, { newsletterId: id, userId: a.id, subject: "Held back" });
      await tx.update(newsletters).set({ status: "sending" }).where(eq(newsletters.id, id));
      await tx
        .update(mailOutbox)
        .set({ nextAttemptAt: sql`now() + interval '1 hour'` })
        .where(eq(mailOutbox.newsletterId, id));
    });
    expect(await pauseStatus(staff, a.id, true, "Looks like spam")).toBe(200);
    await s.database.db.update(mailOutbox).set({ nextAttemptAt: sql`now()` }).where(eq(mailOutbox.newsletterId, id));
    // Several rounds of the sender go by: nothing leaves, nothing is skipped or failed.
    await new Promise((r) => setTimeout(r, 800));
    await s.mailer.idle();
    await runNewsletterJobOn(s);
    expect((await copiesOf(id)).map((r) => r.status)).toEqual(["queued", "queued", "queued"]);
    expect(received(readers)).toEqual([0, 0, 0]);
    expect((await readJson(sending(staff).$get({ param: { id: a.id } }))).body).toMatchObject({ waiting: 3, sent: 0 });
    expect((await readJson(apiClient(s, a).newsletters[":id"].$get({ param: { id } }))).body.newsletter.status).toBe(
      "sending",
    );

    expect(await pauseStatus(staff, a.id, false, "Verified")).toBe(200);
    await s.mailer.idle();
    expect((await copiesOf(id)).map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
    expect(received(readers)).toEqual([1, 1, 1]);
    await runNewsletterJobOn(s);
    expect((await readJson(apiClient(s, a).newsletters[":id"].$get({ param: { id } }))).body.newsletter.status).toBe(
      "sent",
    );
  });

  it("leaves a paused account's scheduled newsletter scheduled; it goes once resumed", async () => {
    const a = await createAuthor(s);
    const readers = await addReaders(a, 2);
    const id = await draft(a, "At nine");
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      (await readJson(apiClient(s, a).newsletters[":id"].send.$post({ param: { id }, json: { at } }))).status,
    ).toBe(200);
    await readJson(sending(staff).$post({ param: { id: a.id }, json: { paused: true, reason: "Under review" } }));
    await s.database.db
      .update(newsletters)
      .set({ scheduledAt: sql`now() - interval '1 second'` })
      .where(eq(newsletters.id, id));
    expect((await runNewsletterJobOn(s)).started).toBe(0);
    expect((await readJson(apiClient(s, a).newsletters[":id"].$get({ param: { id } }))).body.newsletter).toMatchObject({
      status: "scheduled",
      error: null,
    });
    expect(await copiesOf(id)).toEqual([]);

    await readJson(sending(staff).$post({ param: { id: a.id }, json: { paused: false, reason: "Fine" } }));
    expect((await runNewsletterJobOn(s)).started).toBe(1);
    await s.mailer.idle();
    expect(received(readers)).toEqual([1, 1]);
    await runNewsletterJobOn(s);
    const n: Json = (await readJson(apiClient(s, a).newsletters[":id"].$get({ param: { id } }))).body.newsletter;
    expect(n.status).toBe("sent");
  });
});
