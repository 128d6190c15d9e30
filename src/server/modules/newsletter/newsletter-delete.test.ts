// Deleting a newsletter (ADR 069): a draft or scheduled one goes; a sent one is gone from the
// author's list and figures with its text blanked, but its copies still count towards the day's
// cap; one going out is refused; another author can delete none of them.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsletters } from "../../../db/schema/index.ts";
import { apiClient, type Caller, type Json, readJson } from "../../../testing/api-client.ts";
import { addReaders, draftOn, runNewsletterJobOn, sendOn } from "../../../testing/newsletters.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";

const CAP = 3;
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(
    { NEWSLETTER_SEND_RATE: "50", NEWSLETTER_DAILY_CAP: String(CAP) },
    { mailDelivery: { pollMs: 150 } },
  );
});
afterAll(async () => {
  await s?.close();
});

const draft = async (a: TestAuthor, subject = "A letter") =>
  (await draftOn(s, a, { subject, content: "<p>Hello readers</p>" })).id;
const ids = async (a: TestAuthor) =>
  (await readJson(apiClient(s, a).newsletters.$get())).body.newsletters.map((n: Json) => n.id);
const one = (who: Caller) => apiClient(s, who).newsletters[":id"];
const remove = (who: Caller, id: string) => readJson(one(who).$delete({ param: { id } }));
const job = () => runNewsletterJobOn(s, CAP);

describe("deleting a newsletter", () => {
  it("removes a sent one from the list and figures, blanks its text, and gives nothing back to the day's cap", async () => {
    const a = await createAuthor(s);
    await addReaders(s, a, 2);
    const sent = await draft(a, "Gone out");
    expect((await sendOn(s, a, sent)).status).toBe(200);
    // While it goes out: refused, nothing changed.
    const early = await remove(a, sent);
    expect(early.status).toBe(409);
    await s.mailer.idle();
    await job();
    expect((await readJson(one(a).$get({ param: { id: sent } }))).body.newsletter.status).toBe("sent");

    // Another author: not found, and it stays.
    const b = await createAuthor(s);
    expect((await remove(b, sent)).status).toBe(404);
    expect(await ids(a)).toEqual([sent]);

    expect((await remove(a, sent)).status).toBe(204);
    expect(await ids(a)).toEqual([]);
    expect((await readJson(one(a).$get({ param: { id: sent } }))).status).toBe(404);
    expect((await readJson(one(a).figures.$get({ param: { id: sent } }))).status).toBe(404);
    expect((await remove(a, sent)).status).toBe(404);
    const [row] = await s.database.db.select().from(newsletters).where(eq(newsletters.id, sent));
    expect(row?.content).toBe("");
    expect(row?.deletedAt).toBeInstanceOf(Date);

    // Its two copies still count: two more would pass the cap of three.
    const next = await draft(a, "Next one");
    const over = await sendOn(s, a, next);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("sending_limit_reached");
  });

  it("deletes a draft and a scheduled one; another author can delete neither", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    await addReaders(s, a, 1);
    const d = await draft(a, "Draft");
    const later = await draft(a, "Later");
    const at = new Date(Date.now() + 86_400_000).toISOString();
    expect((await sendOn(s, a, later, { at })).status).toBe(200);
    for (const id of [d, later]) expect((await remove(b, id)).status).toBe(404);
    expect((await ids(a)).sort()).toEqual([d, later].sort());
    for (const id of [d, later]) expect((await remove(a, id)).status).toBe(204);
    expect(await ids(a)).toEqual([]);
    expect(await s.database.db.select().from(newsletters).where(eq(newsletters.id, d))).toEqual([]);
  });
});
