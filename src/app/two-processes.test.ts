// Two app servers on one PostgreSQL database, as two processes behind a proxy would be: each has
// its own pools, page cache and LISTEN connection; only the database is shared. A change made
// through one drops the other's cached pages, the public forms' allowances are counted once
// across both, a scheduled job runs in one of them, and a Stripe event delivered to both (a retry
// landing on the other process) takes effect once. (The admin event stream across servers:
// modules/admin/two-servers.test.ts.)
// PGlite is one process's database: skipped there.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transactions } from "../db/schema/index.ts";
import { DAILY_METRICS_LOCK, runDailyMetrics } from "../server/jobs/daily-metrics.job.ts";
import { type FakeStripe, startFakeStripe } from "../testing/fake-stripe.ts";
import { deliver, invoiceEvent, linked, stripeEnv } from "../testing/stripe-flow.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { a, author, b, onPostgres, startTwoServers } from "../testing/two-servers.ts";

startTwoServers();

async function post(server: TestServer, host: string, path: string, form: Record<string, string>) {
  return (await server.postOnHost(host, path, form)).status;
}

async function eventually(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never happened: ${what}`);
}

describe.skipIf(!onPostgres)("two servers on one PostgreSQL", () => {
  it("a change made through one drops the page the other had cached", async () => {
    const host = `${author.subdomain}.localhost`;
    const before = await b.onHost(host, "/");
    expect(before.status).toBe(200);
    const saved = await a.api("/api/site/settings", {
      method: "PATCH",
      cookie: author.cookie,
      json: { websiteName: "Renamed Through A" },
    });
    expect(saved.status).toBe(200);
    // The NOTIFY travels through the database: server B drops its copy without a request to it.
    await eventually(
      async () => (await b.onHost(host, "/")).body.includes("Renamed Through A"),
      "B shows the new name",
    );
  });

  it("counts a sender's contact messages once across both servers", async () => {
    const host = `${author.subdomain}.localhost`;
    const send = (server: TestServer, n: number) =>
      post(server, host, "/contact", {
        name: "Flood",
        email: "flood-two@example.com",
        subject: `Message ${n}`,
        message: "Again",
        website: "",
      });
    // Five allowed an hour: alternating servers does not buy a sixth.
    const statuses = [];
    for (let n = 1; n <= 6; n++) statuses.push(await send(n % 2 ? a : b, n));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await send(a, 7)).toBe(429);
  });

  it("runs a scheduled job in one process only: while one holds the job, the other skips it", async () => {
    await a.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${DAILY_METRICS_LOCK})`);
      // Server A is in the middle of the daily metrics: B's run of the same job does nothing.
      expect(await runDailyMetrics(b.database.db)).toBe(false);
    });
    expect(await runDailyMetrics(b.database.db)).toBe(true);
  });
});

describe.skipIf(!onPostgres)("two servers billing through Stripe", () => {
  let fake: FakeStripe;
  let c: TestServer;
  let d: TestServer;
  beforeAll(async () => {
    fake = await startFakeStripe();
    c = await startTestServer(stripeEnv(fake));
    d = await startTestServer(stripeEnv(fake), { sharedDatabaseUrl: c.databaseUrl });
  });
  afterAll(async () => {
    await d?.close();
    await c?.close();
    await fake?.close();
  });

  it("applies a webhook event once when it reaches both at the same time", async () => {
    const u = await linked(c, fake);
    const paid = invoiceEvent("invoice.paid", u.subId, { customer: u.customer });
    const answers = await Promise.all([deliver(c, paid), deliver(d, paid), deliver(c, paid), deliver(d, paid)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const applied = await Promise.all(answers.map(async (r) => (await r.json()).applied as number));
    expect(applied.reduce((x, y) => x + y, 0)).toBe(1);
    const rows = await c.database.db.select().from(transactions).where(eq(transactions.userId, u.id));
    expect(rows).toHaveLength(1);
  });
});
