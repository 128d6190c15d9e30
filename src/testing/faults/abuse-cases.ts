// The abuse half of the fault suite: slow and oversized requests against a running server, each
// case cut off in bounded time and memory while the server keeps answering others.
import { expect } from "vitest";
import type { TestAuthor } from "../users.ts";
import { bigBody, type Outcome, slowBody, slowHeaders } from "./abuse.ts";
import { abuseRows, failedCases } from "./figures.ts";
import { type Fixture, HEADERS_TIMEOUT_S, REQUEST_TIMEOUT_S } from "./fixture.ts";
import { mb, sampleRss } from "./server-process.ts";

/** How much the server's resident memory may grow under abuse. */
const RSS_GROWTH_LIMIT = 150 * 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Slow and oversized requests; each case must be cut off in bounded time and memory. */
export async function abuse(f: Fixture, author: TestAuthor) {
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
