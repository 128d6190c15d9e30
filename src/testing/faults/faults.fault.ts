// The standing fault suite (`npm run test:faults`, ADR 016). For the embedded database and for
// PostgreSQL: create posts through the HTTP API in a loop while the server is SIGKILLed and
// restarted, while PostgreSQL connections are terminated, and while PostgreSQL itself is
// restarted; then every write the API acknowledged must be there, and the server must have kept
// serving (or come back by itself). Also: the server's memory stays bounded under oversized and
// slow requests. Figures go to the output and (outside CI) to bench/RESULTS.md.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpCatcher } from "../smtp-catcher.ts";
import { freePort } from "../test-server.ts";
import { createAuthor, type TestAuthor } from "../users.ts";
import { abuse } from "./abuse-cases.ts";
import { faultRows, report, skipped } from "./figures.ts";
import { type Fixture, serverFixture } from "./fixture.ts";
import { type PrivatePostgres, startPrivatePostgres } from "./private-postgres.ts";
import { Writer } from "./writer.ts";

let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
beforeAll(async () => {
  smtp = await startSmtpCatcher();
});
afterAll(async () => {
  await smtp?.close();
  report();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function finish(engine: string, fault: string, f: Fixture, writer: Writer, recoveryMs: number, peak: number) {
  await writer.stop();
  const lost = await writer.lost();
  const s = writer.stats();
  faultRows.push({ engine, fault, ...s, lost: lost.length, recoveryMs, peakRss: peak });
  expect(lost, "writes the API acknowledged and then lost").toEqual([]);
  expect(s.acknowledged).toBeGreaterThan(0);
  expect(f.server.alive()).toBe(true);
}

/** SIGKILL in the middle of writes, then a restart (what a supervisor does), three times. */
async function killAndRestart(engine: string, f: Fixture, author: TestAuthor) {
  const writer = new Writer(f.base, author.cookie, `${engine} SIGKILL`);
  writer.start();
  let slowest = 0;
  let peak = 0;
  for (let round = 0; round < 3; round++) {
    await sleep(1500);
    peak = Math.max(peak, f.server.rss());
    expect(await f.server.kill("SIGKILL")).toBe("SIGKILL");
    // The lock file of the killed process is still there: the new one must start regardless.
    await f.restart();
    slowest = Math.max(slowest, await writer.recovered());
  }
  await sleep(1000);
  await finish(engine, "server SIGKILLed and restarted ×3", f, writer, slowest, peak);
}

describe("on the embedded database (PGlite)", () => {
  let f: Fixture;
  let author: TestAuthor;
  beforeAll(async () => {
    f = await serverFixture(smtp);
    author = await createAuthor(f.asTestServer());
  });
  afterAll(async () => {
    await f?.close();
  });

  it("keeps every acknowledged write when the server is SIGKILLed and restarted", async () => {
    await killAndRestart("PGlite", f, author);
  });

  it("keeps its memory bounded and cuts off slow clients under oversized and slow requests", async () => {
    await abuse(f, author);
  });
});

describe("on PostgreSQL", () => {
  let cluster: PrivatePostgres | undefined;
  let adminUrl: string | undefined;
  let dbName: string;
  let f: Fixture;
  let author: TestAuthor;

  beforeAll(async () => {
    const started = startPrivatePostgres(await freePort());
    if ("skipped" in started) {
      skipped.push(`PostgreSQL restart: ${started.skipped}`);
      console.warn(`Skipping the PostgreSQL restart: ${started.skipped}`);
      adminUrl = process.env.FAULTS_DATABASE_URL ?? process.env.DATABASE_URL;
    } else {
      cluster = started;
      adminUrl = started.url;
    }
    if (!adminUrl) {
      skipped.push("PostgreSQL: no private cluster and no DATABASE_URL");
      return;
    }
    dbName = `bookplate_faults_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await withAdmin((c) => c.query(`create database ${dbName}`));
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    f = await serverFixture(smtp, url.toString());
    author = await createAuthor(f.asTestServer());
  });
  afterAll(async () => {
    await f?.close();
    if (adminUrl && dbName) await withAdmin((c) => c.query(`drop database if exists ${dbName} with (force)`));
    cluster?.stop();
  });

  async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  }

  it("keeps every acknowledged write when the server is SIGKILLed and restarted", async ({ skip }) => {
    if (!adminUrl) skip();
    await killAndRestart("PostgreSQL", f, author);
  });

  it("keeps serving, without a restart, when PostgreSQL terminates its connections", async ({ skip }) => {
    if (!adminUrl) skip();
    const pid = f.server.pid;
    const writer = new Writer(f.base, author.cookie, "PostgreSQL terminate");
    writer.start(4);
    let slowest = 0;
    let peak = 0;
    for (let round = 0; round < 4; round++) {
      await sleep(800);
      await withAdmin((c) =>
        c.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
          [dbName],
        ),
      );
      peak = Math.max(peak, f.server.rss());
      slowest = Math.max(slowest, await writer.recovered(30_000));
    }
    await sleep(1000);
    expect(f.server.pid).toBe(pid);
    await finish("PostgreSQL", "all connections terminated ×4", f, writer, slowest, peak);
    // The LISTEN connection came back by itself (and the page cache was dropped meanwhile).
    await expect.poll(() => f.server.output(), { timeout: 15_000 }).toMatch(/site change notices resumed/);
  });

  it("comes back by itself when PostgreSQL is restarted", async ({ skip }) => {
    if (!cluster) skip();
    const restartable = cluster as PrivatePostgres;
    const pid = f.server.pid;
    const writer = new Writer(f.base, author.cookie, "PostgreSQL restart");
    writer.start();
    let slowest = 0;
    let peak = 0;
    for (let round = 0; round < 2; round++) {
      await sleep(1500);
      restartable.restart();
      peak = Math.max(peak, f.server.rss());
      slowest = Math.max(slowest, await writer.recovered(30_000));
    }
    await sleep(1000);
    expect(f.server.pid).toBe(pid);
    await finish("PostgreSQL", "PostgreSQL restarted (immediate stop) ×2", f, writer, slowest, peak);
  });
});
