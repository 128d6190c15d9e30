// The standing fault suite (`npm run test:faults`, ADR 016). For the embedded database and for
// PostgreSQL: create posts through the HTTP API in a loop while the server is SIGKILLed and
// restarted, while PostgreSQL connections are terminated, and while PostgreSQL itself is
// restarted; then every write the API acknowledged must be there, and the server must have kept
// serving (or come back by itself). Also: the server's memory stays bounded under oversized and
// slow requests. Figures go to the output and (outside CI) to bench/RESULTS.md.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpCatcher } from "../smtp-catcher.ts";
import { freePort, type TestServer } from "../test-server.ts";
import { createAuthor, type TestAuthor } from "../users.ts";
import { bigBody, type Outcome, slowBody, slowHeaders } from "./abuse.ts";
import { type PrivatePostgres, startPrivatePostgres } from "./private-postgres.ts";
import { mb, sampleRss, startServerProcess } from "./server-process.ts";
import { Writer } from "./writer.ts";

// Short on purpose, so that the suite sees slow clients cut off in seconds; production defaults
// are longer (README), the mechanism is the same.
const HEADERS_TIMEOUT_S = 3;
const REQUEST_TIMEOUT_S = 6;
const serverEnv = {
  HTTP_HEADERS_TIMEOUT: String(HEADERS_TIMEOUT_S),
  HTTP_REQUEST_TIMEOUT: String(REQUEST_TIMEOUT_S),
};
/** How much the server's resident memory may grow under abuse. */
const RSS_GROWTH_LIMIT = 150 * 1024 * 1024;

type FaultRow = {
  engine: string;
  fault: string;
  attempted: number;
  acknowledged: number;
  lost: number;
  refused: number;
  recoveryMs: number;
  peakRss: number;
};
type AbuseRow = {
  case: string;
  requests: number;
  refused: number;
  answers: string;
  slowestMs: number;
  rssGrowth: number;
};
const faultRows: FaultRow[] = [];
const abuseRows: AbuseRow[] = [];
const skipped: string[] = [];
/** Abuse cases that went wrong, named in the report next to their figures. */
const failedCases: string[] = [];

let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
beforeAll(async () => {
  smtp = await startSmtpCatcher();
});
afterAll(async () => {
  await smtp?.close();
  report();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server process on a fixed port and data directory, which the suite may kill and restart. */
async function serverFixture(databaseUrl?: string) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-faults-"));
  const start = () => startServerProcess({ port, dataDir, databaseUrl, smtpUrl: smtp.url, env: serverEnv });
  const first = await start().catch((err: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  });
  const fixture = {
    port,
    base: `http://localhost:${port}`,
    server: first,
    async restart() {
      fixture.server = await start();
    },
    /** Enough of a test server for the helpers that sign an author up. */
    asTestServer(): TestServer {
      const base = fixture.base;
      return {
        smtp,
        api(path: string, init: RequestInit & { json?: unknown; cookie?: string } = {}) {
          const { json, cookie, ...rest } = init;
          const headers = new Headers(rest.headers);
          headers.set("origin", base);
          if (cookie) headers.set("cookie", cookie);
          if (json !== undefined) headers.set("content-type", "application/json");
          return fetch(`${base}${path}`, {
            ...rest,
            headers,
            body: json !== undefined ? JSON.stringify(json) : rest.body,
          });
        },
      } as unknown as TestServer;
    },
    async close() {
      await fixture.server.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return fixture;
}
type Fixture = Awaited<ReturnType<typeof serverFixture>>;

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
    f = await serverFixture();
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
    f = await serverFixture(url.toString());
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

/** Slow and oversized requests; each case must be cut off in bounded time and memory. */
async function abuse(f: Fixture, author: TestAuthor) {
  const port = f.port;
  const app = `localhost:${port}`;
  const site = `${author.subdomain}.localhost:${port}`;
  const server = f.server;
  // Warm up what a first request loads, so that the baseline is the server at work.
  for (const url of [`${f.base}/healthz`, `http://127.0.0.1:${port}/contact`]) {
    await fetch(url, { headers: { host: site } }).catch(() => {});
  }
  await fetch(`${f.base}/api/posts`, { headers: { cookie: author.cookie } });
  let failures: string[] = [];

  async function run(name: string, count: number, one: () => Promise<Outcome>, check: (o: Outcome) => string | null) {
    // A server just (re)started keeps growing for a while as the embedded database warms up:
    // measure from where it settles, or that growth would be blamed on the abuse.
    await settled(() => server.rss());
    const before = server.rss();
    const sampler = sampleRss(() => server.rss());
    // The server keeps answering others while it is being abused.
    const healthy = (async () => {
      let slowest = 0;
      for (let i = 0; i < 5; i++) {
        await sleep(300);
        const t = Date.now();
        const res = await fetch(`${f.base}/healthz`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
        if (res?.status !== 200) return Number.POSITIVE_INFINITY;
        slowest = Math.max(slowest, Date.now() - t);
      }
      return slowest;
    })();
    const outcomes = await Promise.all(Array.from({ length: count }, one));
    const healthMs = await healthy;
    sampler.stop();
    const growth = Math.max(0, sampler.peak - before);
    const refused = outcomes.filter((o) => check(o) === null).length;
    abuseRows.push({
      case: name,
      requests: count,
      refused,
      answers: summarize(outcomes),
      slowestMs: Math.max(...outcomes.map((o) => o.ms)),
      rssGrowth: growth,
    });
    const problems = outcomes.map(check).filter((p): p is string => p !== null);
    if (problems.length) failures.push(`${name}: ${problems.length} of ${count} — ${problems[0]}`);
    if (healthMs > 2000) failures.push(`${name}: /healthz took ${healthMs} ms meanwhile`);
    if (growth > RSS_GROWTH_LIMIT) failures.push(`${name}: resident memory grew by ${mb(growth)} MB`);
    if (!server.alive()) failures.push(`${name}: the server died`);
  }

  const cutOffWithin = (limitMs: number) => (o: Outcome) => (o.timedOut ? `still open after ${limitMs} ms` : null);
  const refusedEarly = (total: number) => (o: Outcome) => {
    if (o.timedOut) return "no answer in time";
    if (o.status !== null && o.status < 400) return `answered ${o.status}`;
    if (o.sent >= total) return `the whole ${mb(total)} MB body was read (answer ${o.status ?? "none"})`;
    return null;
  };

  const headersLimit = (HEADERS_TIMEOUT_S + 4) * 1000;
  await run(
    "slow headers (slowloris), a byte per 500 ms",
    200,
    () => slowHeaders(port, app, 500, headersLimit),
    cutOffWithin(headersLimit),
  );
  const bodyLimit = (REQUEST_TIMEOUT_S + 4) * 1000;
  await run(
    "slow body to the API, a byte per 500 ms",
    100,
    // Signed in, so that the route reads the body rather than answering 401 first.
    () =>
      slowBody(port, app, "/api/posts", 500, bodyLimit, {
        headers: `Cookie: ${author.cookie}\r\n`,
        contentType: "application/json",
      }),
    cutOffWithin(bodyLimit),
  );
  await run(
    "slow chunked body to a site's /contact, a byte per 500 ms",
    100,
    // Chunked: with a Content-Length this large the form is refused before its body is read.
    () => slowBody(port, site, "/contact", 500, bodyLimit, { chunked: true }),
    cutOffWithin(bodyLimit),
  );
  const big = 150 * 1024 * 1024;
  await run(
    "150 MB with Content-Length to the API, 3 at once",
    3,
    () =>
      bigBody(port, app, "/api/posts", {
        bytes: big,
        chunked: false,
        limitMs: 30_000,
        contentType: "application/json",
      }),
    refusedEarly(big),
  );
  await run(
    "150 MB chunked to the API, 3 at once",
    3,
    () =>
      bigBody(port, app, "/api/posts", { bytes: big, chunked: true, limitMs: 30_000, contentType: "application/json" }),
    refusedEarly(big),
  );
  await run(
    "150 MB chunked to a site's /contact, 3 at once",
    3,
    () => bigBody(port, site, "/contact", { bytes: big, chunked: true, limitMs: 30_000 }),
    refusedEarly(big),
  );
  const messages = failures;
  failures = [];
  failedCases.push(...messages);
  expect(messages.join("\n"), "requests that were not cut off in bounded time and memory").toBe("");
}

/** Waits (at most 20 s) until resident memory stops moving by more than 4 MB a second. */
async function settled(read: () => number) {
  const until = Date.now() + 20_000;
  let last = read();
  while (Date.now() < until) {
    await sleep(1000);
    const now = read();
    if (Math.abs(now - last) < 4 * 1024 * 1024) return;
    last = now;
  }
}

/** "408 ×100, closed ×3": what the server did with a case's requests. */
function summarize(outcomes: Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const k = o.timedOut ? "still open" : o.status === null ? "closed" : String(o.status);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ×${n}`).join(", ");
}

function report() {
  const lines: string[] = [];
  const faultTable = [
    "| engine | fault | writes tried | acknowledged | lost | refused / unanswered | slowest recovery | peak RSS |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...faultRows.map(
      (r) =>
        `| ${r.engine} | ${r.fault} | ${r.attempted} | ${r.acknowledged} | ${r.lost} | ${r.refused} | ${(r.recoveryMs / 1000).toFixed(1)} s | ${mb(r.peakRss)} MB |`,
    ),
  ];
  const abuseTable = [
    "| case | requests | cut off / refused in time | answers | slowest | RSS growth |",
    "| --- | --- | --- | --- | --- | --- |",
    ...abuseRows.map(
      (r) =>
        `| ${r.case} | ${r.requests} | ${r.refused} | ${r.answers} | ${(r.slowestMs / 1000).toFixed(1)} s | ${mb(r.rssGrowth)} MB |`,
    ),
  ];
  lines.push(...faultTable, "", ...abuseTable);
  if (skipped.length) lines.push("", ...skipped.map((s) => `Skipped: ${s}`));
  console.log(`\nFault suite figures\n\n${lines.join("\n")}\n`);
  if (process.env.CI || !faultRows.length) return;
  const section = [
    "## Fault suite",
    "",
    "`npm run test:faults` (ADR 016): posts created through the API in a loop (3–4 writers) while the server is " +
      "SIGKILLed and restarted, while PostgreSQL terminates every connection of the database, and while a " +
      "private PostgreSQL cluster is stopped the hard way (`pg_ctl stop -m immediate`) and started again. " +
      "“Lost” counts writes the API answered 201 for and that are missing afterwards; “refused / unanswered” " +
      "counts requests that got an error or no answer while the fault lasted (none of them were acknowledged). " +
      "“Slowest recovery” is the longest wait for the next acknowledged write after a fault.",
    "",
    ...faultTable,
    "",
    `Oversized and slow requests against the embedded-database server (headers timeout ${HEADERS_TIMEOUT_S} s, ` +
      `request timeout ${REQUEST_TIMEOUT_S} s for the run; RSS growth is the peak over the server's resident ` +
      "memory before the case).",
    "",
    ...abuseTable,
    "",
    ...(failedCases.length ? [...failedCases.map((s) => `Failed: ${s}.`), ""] : []),
    ...(skipped.length ? [...skipped.map((s) => `Skipped: ${s}`), ""] : []),
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run test:faults\` on this 2-core machine.`,
    "",
  ].join("\n");
  const file = "bench/RESULTS.md";
  let previous = "";
  try {
    previous = readFileSync(file, "utf8");
  } catch {
    /* first run */
  }
  const parts = previous.split(/^(?=## )/m);
  const kept = parts.filter((p) => !p.startsWith("## Fault suite"));
  writeFileSync(file, `${[...kept.map((p) => p.trimEnd()), section.trimEnd()].join("\n\n")}\n`);
  spawnSync("npx", ["biome", "format", "--write", file], { stdio: "ignore" });
}
