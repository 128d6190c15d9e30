// Two app servers on one PostgreSQL database (as in src/app/two-processes.test.ts), both sending
// (ADR 066): a newsletter's copies are shared out between their senders and every reader gets
// exactly one; a scheduled newsletter that comes due in both at once goes out once.
// PGlite is one process's database: skipped there.
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, newsletterSubscribers, newsletters } from "../../../db/schema/index.ts";
import { callApi } from "../../../testing/api-client.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";
import { runNewsletterJob } from "./newsletters.service.ts";

const onPostgres = Boolean(process.env.DATABASE_URL);
const READERS = 60;
let a: TestServer;
let b: TestServer;
let author: TestAuthor;
let readers: string[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  const env = { NEWSLETTER_SEND_RATE: "100" };
  a = await startTestServer(env);
  b = await startTestServer(env, { sharedDatabaseUrl: a.databaseUrl });
  author = await createAuthor(a);
  readers = Array.from({ length: READERS }, (_, i) => `two-${i}-${author.subdomain}@example.com`);
  await a.database.db.insert(newsletterSubscribers).values(
    readers.map((email) => ({
      userId: author.id,
      email,
      status: "confirmed",
      confirmToken: randomBytes(18).toString("base64url"),
    })),
  );
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const copiesTo = (email: string) => a.smtp.mails.filter((m) => m.to.includes(email)).length;

async function draft(subject: string) {
  const res = await callApi(a, author, "POST", "/api/newsletters", { subject, content: "<p>Hello both</p>" });
  expect(res.status).toBe(201);
  return res.body.newsletter.id as string;
}

async function bothIdle(id: string) {
  for (let i = 0; i < 200; i++) {
    await Promise.all([a.mailer.idle(), b.mailer.idle()]);
    const rows = await a.database.db.select().from(mailOutbox).where(eq(mailOutbox.newsletterId, id));
    if (rows.every((r) => r.status === "sent")) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the newsletter was never all sent");
}

describe.skipIf(!onPostgres)("a newsletter with two servers on one PostgreSQL", () => {
  it("is sent by both senders, one copy per reader", async () => {
    const id = await draft("Sent by two");
    // Sent through B; A's sender is woken by the NOTIFY too, and both take copies.
    expect((await callApi(b, author, "POST", `/api/newsletters/${id}/send`, {})).status).toBe(200);
    const rows = await bothIdle(id);
    expect(rows).toHaveLength(READERS);
    const subject = (m: { subject: string }) => m.subject === "Sent by two";
    expect(a.smtp.mails.filter(subject)).toHaveLength(READERS);
    expect(readers.map(copiesTo)).toEqual(readers.map(() => 1));
    // Every row was claimed once: no row needed a second attempt.
    expect(rows.map((r) => r.attempts)).toEqual(rows.map(() => 1));
  });

  it("goes out once when it comes due in both servers at the same moment", async () => {
    const id = await draft("Due in both");
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect((await callApi(a, author, "POST", `/api/newsletters/${id}/send`, { at })).status).toBe(200);
    await a.database.db
      .update(newsletters)
      .set({ scheduledAt: sql`now() - interval '1 second'` })
      .where(eq(newsletters.id, id));
    const deps = (s: TestServer) => ({
      db: s.database.db,
      mailer: s.mailer,
      logger: s.logger,
      site: { protocol: "http:", sitesDomain: "localhost" },
      dailyCap: 5000,
    });
    const runs = await Promise.all([runNewsletterJob(deps(a)), runNewsletterJob(deps(b)), runNewsletterJob(deps(a))]);
    expect(runs.reduce((n, r) => n + r.started, 0)).toBe(1);
    const rows = await bothIdle(id);
    expect(rows).toHaveLength(READERS);
    expect(a.smtp.mails.filter((m) => m.subject === "Due in both")).toHaveLength(READERS);
  });
});
