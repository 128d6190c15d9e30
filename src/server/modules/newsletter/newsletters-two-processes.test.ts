import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, newsletters } from "../../../db/schema/index.ts";
import { addReaders, draftOn, sendOn } from "../../../testing/newsletters.ts";
import type { TestServer } from "../../../testing/test-server.ts";
import { a, author, b, onPostgres, startTwoServers } from "../../../testing/two-servers.ts";
import { runNewsletterJob } from "./newsletters.service.ts";

const READERS = 60;
startTwoServers({ NEWSLETTER_SEND_RATE: "100" });
let readers: string[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  readers = await addReaders(a, author, READERS);
});

const copiesTo = (email: string) => a.smtp.mails.filter((m) => m.to.includes(email)).length;

async function draft(subject: string) {
  return (await draftOn(a, author, { subject, content: "<p>Hello both</p>" })).id;
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
    expect((await sendOn(b, author, id)).status).toBe(200);
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
    expect((await sendOn(a, author, id, { at })).status).toBe(200);
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
