// npm run bench:sites — how fast public author pages are served, as ratios against a bare
// Node http server sending the identical bytes, measured in the same run on the same machine.
//
// 1. Seeds 1,000 sites of 10 books each into a fresh embedded database.
// 2. Starts the production server (page cache on), again with PAGE_CACHE=false (every page
//    rendered; the site contexts kept), and again with SITE_CONTEXT_CACHE=false too (nothing
//    kept); with BENCH_POSTGRES_URL set (a PostgreSQL server), also seeds a fresh database there
//    and repeats the two uncached runs on it.
// 3. Loads one book page (cached, then uncached) and the home pages of all 1,000 hosts.
// 4. The scale run (BENCH_SCALE_SITES, 10,000 by default; 0 skips it): seeds that many sites into
//    a database of their own (timed), caches every home page in a budget that holds them all
//    (memory before and after, from /proc and /metrics), loads them over all hosts, then again
//    with the default page cache budget, which is smaller than that working set.
// 5. Writes bench/RESULTS.md.
//
// Load comes from wrk (C, from Debian; installed here when missing): a load generator written in
// JavaScript tops out near the bare server it is meant to measure, which squeezes every ratio.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../src/db/client.ts";
import { books, profiles, subscriptions, user, websites } from "../src/db/schema/index.ts";
import {
  buildServer,
  ensureWrk,
  freePort,
  freshPostgres,
  get,
  type Memory,
  median,
  memoryOf,
  type Result,
  startServer,
  stop,
  writeSection,
  wrk,
} from "./lib.ts";

const SITES = Number(process.env.BENCH_SITES ?? 1000);
/** The scale run: this many sites in a database of their own (0 skips it). */
const SCALE_SITES = Number(process.env.BENCH_SCALE_SITES ?? 10_000);
const BOOKS = 10;
/** Seconds per slice; every run is ROUNDS slices, interleaved with slices of the baseline. */
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 32;

async function seed(dataDir: string, databaseUrl = "", sites = SITES) {
  const database = await openDatabase({ dataDir, databaseUrl });
  await database.migrate();
  const db = database.db;
  const firstBook: string[] = [];
  for (let start = 0; start < sites; start += 100) {
    const batch = Array.from({ length: Math.min(100, sites - start) }, (_, i) => {
      const n = start + i;
      return { id: `bench-${n}`, sub: `site${String(n).padStart(4, "0")}`, name: `Author ${n}` };
    });
    await db.insert(user).values(batch.map((b) => ({ id: b.id, name: b.name, email: `${b.sub}@bench.invalid` })));
    await db.insert(profiles).values(
      batch.map((b) => ({
        id: b.id,
        name: b.name,
        email: `${b.sub}@bench.invalid`,
        bio: `<p>${b.name} writes novels. `.repeat(20),
      })),
    );
    // Dated a day back: the page cache's sweep (ADR 007) drops the pages of sites whose website or
    // subscription row changed within the last minute, so rows written just before the server
    // starts would empty the cache every 15 s for that minute — not what a real site sees.
    const old = new Date(Date.now() - 86_400_000);
    await db
      .insert(websites)
      .values(
        batch.map((b) => ({ userId: b.id, subdomain: b.sub, websiteName: b.name, createdAt: old, updatedAt: old })),
      );
    await db
      .insert(subscriptions)
      .values(batch.map((b) => ({ userId: b.id, tier: "midi", status: "active", createdAt: old, updatedAt: old })));
    const rows = await db
      .insert(books)
      .values(
        batch.flatMap((b) =>
          Array.from({ length: BOOKS }, (_, k) => ({
            userId: b.id,
            title: `Book ${k + 1} by ${b.name}`,
            slug: `book-${k + 1}`,
            author: b.name,
            shortBlurb: `<p>A story about ${k + 1} things. `.repeat(15),
            releaseDate: "2024-01-01",
            primaryPriceMinor: 899,
            sortOrder: k,
            seriesName: "Series",
            orderInSeries: k + 1,
          })),
        ),
      )
      .returning({ slug: books.slug, userId: books.userId, sortOrder: books.sortOrder });
    for (const r of rows) if (r.sortOrder === 0) firstBook.push(r.slug);
  }
  await database.close();
  return firstBook;
}

const BARE_SERVER = `
const http = require("node:http");
const body = require("node:fs").readFileSync(process.env.BODY_FILE);
http
  .createServer((_req, res) => {
    res.writeHead(200, { "content-type": process.env.BODY_TYPE });
    res.end(body);
  })
  .listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
`;

function startBare(bodyFile: string, contentType: string, port: number) {
  const child = spawn(process.execPath, ["-e", BARE_SERVER], {
    env: { ...process.env, BODY_FILE: bodyFile, BODY_TYPE: contentType, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise<ChildProcess>((ok, fail) => {
    child.stdout?.once("data", () => ok(child));
    child.once("exit", (code) => fail(new Error(`bare server exited with ${code}`)));
  });
}

/** One slice of load: wrk with CONNECTIONS connections for DURATION seconds. */
const load = (opts: { url: string; headers?: Record<string, string>; script?: string }) =>
  wrk({ ...opts, seconds: DURATION, connections: CONNECTIONS });

/** Each request names the next of `sites` hosts in turn (wrk's Lua request hook). */
function hostsLoad(port: number, sites: number) {
  return load({
    url: `http://127.0.0.1:${port}/`,
    script: `local i = 0
request = function()
  i = (i + 1) % ${sites}
  return wrk.format("GET", "/", { ["Host"] = string.format("site%04d.localhost:${port}", i), ["User-Agent"] = "bench" })
end
`,
  });
}

/** Asks every host's home page once, a few at a time (fills the page cache; returns the seconds it took). */
async function warmHomePages(port: number, sites: number) {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < sites) {
        const n = next++;
        const res = await get(port, `site${String(n).padStart(4, "0")}.localhost:${port}`, "/");
        if (res.status !== 200) throw new Error(`home page of site ${n} answered ${res.status}`);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

function scaleReport(r: ScaleRun, row: (name: string, m: Measured) => string): string[] {
  const mb = (x: number) => `${Math.round(x)} MB`;
  const mem = (m: Memory) => `${mb(m.rssMb)} resident, ${m.pages} pages cached (${mb(m.cacheMb)} counted)`;
  return [
    `### ${SCALE_SITES} sites × ${BOOKS} books`,
    "",
    `Seeded into a fresh embedded database in ${r.seedSeconds.toFixed(0)} s. The server, started with a page cache budget that holds every home page (\`PAGE_CACHE_MB=4096\`): ${mem(r.idle)} after start; every host's home page asked once (rendered and cached, ${r.warmSeconds.toFixed(0)} s, 8 at a time): ${mem(r.warm)}; after the load below: ${mem(r.loaded)}.`,
    "",
    "| run | requests/s | of baseline | p99 ms | p99 vs baseline | errors + non-2xx | target |",
    "|---|---:|---:|---:|---:|---:|---|",
    row(`home pages over all ${SCALE_SITES} hosts, every one cached`, r.all),
    row(`home pages over all ${SCALE_SITES} hosts, default budget (64 MB, smaller than the working set)`, r.bounded),
    "",
    r.boundedMemory.pages < SCALE_SITES
      ? `With the default budget the cache held ${r.boundedMemory.pages} of the ${SCALE_SITES} home pages after the run (${mem(r.boundedMemory)}): with the hosts asked in turn and the least recently used page evicted first, a page is gone before its host comes round again, so nearly every request renders on the embedded database and the run follows the uncached figure. A budget that holds the working set (\`PAGE_CACHE_MB\`) buys the cached figure back with memory.`
      : `The default budget held all ${SCALE_SITES} home pages (${mem(r.boundedMemory)} after the run).`,
    "",
  ];
}

type ScaleRun = {
  seedSeconds: number;
  warmSeconds: number;
  idle: Memory;
  warm: Memory;
  all: Measured;
  loaded: Memory;
  bounded: Measured;
  boundedMemory: Memory;
};

/** One line of the report: medians over the rounds, each ratio taken against the baseline slice run just before. */
type Measured = { rps: number; p99: number; ratio: number; p99Ratio: number; failures: number };

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-bench-"));
  const baselines: Result[] = [];
  let barePort = 0;
  /**
   * The machine is shared and noisy: each run is split into ROUNDS slices, each right after a
   * slice of the baseline, and a ratio is the median of the per-round ratios.
   */
  async function against(run: () => Promise<Result>): Promise<Measured> {
    const runs: Result[] = [];
    const ratios: number[] = [];
    const p99Ratios: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const base = await load({ url: `http://127.0.0.1:${barePort}/` });
      baselines.push(base);
      const res = await run();
      runs.push(res);
      ratios.push(res.rps / base.rps);
      p99Ratios.push(res.p99 / Math.max(base.p99, 1));
    }
    return {
      rps: median(runs.map((x) => x.rps)),
      p99: median(runs.map((x) => x.p99)),
      ratio: median(ratios),
      p99Ratio: median(p99Ratios),
      failures: runs.reduce((n, x) => n + x.errors + x.non2xx, 0),
    };
  }
  ensureWrk();
  buildServer();
  try {
    console.log(`seeding ${SITES} sites × ${BOOKS} books…`);
    const bookIds = await seed(dataDir);
    const port = await freePort();
    const host = `site0000.localhost:${port}`;
    const bookPath = `/book/${bookIds[0]}`;
    const bookLoad = (path: string) => () =>
      load({ url: `http://127.0.0.1:${port}${path}`, headers: { Host: host, "User-Agent": "bench" } });

    let server = (await startServer(dataDir, port, {})).child;
    const page = await get(port, host, bookPath);
    if (page.status !== 200) throw new Error(`book page answered ${page.status}`);
    console.log(`book page: ${page.body.length} bytes`);

    // The baseline: a bare Node http server in its own process (like the app, so that neither
    // shares the load generator's event loop) sending the identical bytes and content type.
    const bodyFile = join(dataDir, "page.html");
    writeFileSync(bodyFile, page.body);
    barePort = await freePort();
    const bare = await startBare(bodyFile, String(page.headers["content-type"] ?? "text/html"), barePort);

    console.log("cached book page…");
    const cached = await against(bookLoad(bookPath));
    console.log(`home pages of ${SITES} hosts…`);
    // Each request names the next host in turn (wrk's Lua request hook).
    const hosts = await against(() => hostsLoad(port, SITES));
    // A marketing page on the app host (server-rendered, rendered once, served with an ETag).
    console.log("marketing page (/features)…");
    const appHost = `localhost:${port}`;
    const marketingPage = await get(port, appHost, "/features");
    if (marketingPage.status !== 200) throw new Error(`features page answered ${marketingPage.status}`);
    const marketing = await against(() =>
      load({ url: `http://127.0.0.1:${port}/features`, headers: { Host: appHost, "User-Agent": "bench" } }),
    );
    await stop(server);

    // Not cached: the page is rendered on every request, its site's context kept (a page missing
    // from the cache of a site read lately), then with nothing kept at all (a site's first page).
    const COLD = { PAGE_CACHE: "false", SITE_CONTEXT_CACHE: "false" };
    console.log("book page, cache off…");
    server = (await startServer(dataDir, port, { PAGE_CACHE: "false" })).child;
    const uncached = await against(bookLoad(bookPath));
    await stop(server);
    console.log("book page, nothing kept…");
    server = (await startServer(dataDir, port, COLD)).child;
    const cold = await against(bookLoad(bookPath));
    await stop(server);

    // The same uncached run on PostgreSQL (the production database), when one is offered.
    let onPostgres: Measured | undefined;
    let coldOnPostgres: Measured | undefined;
    const pgBase = process.env.BENCH_POSTGRES_URL;
    if (pgBase) {
      const fresh = await freshPostgres(pgBase);
      try {
        console.log("seeding PostgreSQL…");
        const pgBooks = await seed(dataDir, fresh.url);
        server = (await startServer(dataDir, port, { PAGE_CACHE: "false", DATABASE_URL: fresh.url })).child;
        const pgPath = `/book/${pgBooks[0]}`;
        if ((await get(port, host, pgPath)).status !== 200) throw new Error("book page on PostgreSQL failed");
        console.log("book page, cache off, PostgreSQL…");
        onPostgres = await against(bookLoad(pgPath));
        await stop(server);
        console.log("book page, nothing kept, PostgreSQL…");
        server = (await startServer(dataDir, port, { ...COLD, DATABASE_URL: fresh.url })).child;
        coldOnPostgres = await against(bookLoad(pgPath));
        await stop(server);
      } finally {
        await fresh.drop();
      }
    }
    // The scale run: many sites in a database of their own; every home page cached in a budget
    // that holds them all, then in the default budget, which does not.
    let scale: ScaleRun | undefined;
    if (SCALE_SITES > 0) {
      const scaleDir = mkdtempSync(join(tmpdir(), "bookplate-bench-scale-"));
      try {
        console.log(`seeding ${SCALE_SITES} sites × ${BOOKS} books…`);
        const seeding = performance.now();
        await seed(scaleDir, "", SCALE_SITES);
        const seedSeconds = (performance.now() - seeding) / 1000;
        server = (await startServer(scaleDir, port, { PAGE_CACHE_MB: "4096" })).child;
        // Settled first: start-up's garbage is freed in the first seconds (bench:memory waits too).
        await new Promise((ok) => setTimeout(ok, 10_000));
        const idle = await memoryOf(server, port);
        const warmSeconds = await warmHomePages(port, SCALE_SITES);
        const warm = await memoryOf(server, port);
        console.log(`home pages of ${SCALE_SITES} hosts, all cached…`);
        const all = await against(() => hostsLoad(port, SCALE_SITES));
        const loaded = await memoryOf(server, port);
        await stop(server);
        server = (await startServer(scaleDir, port, {})).child;
        console.log(`home pages of ${SCALE_SITES} hosts, default page cache budget…`);
        const bounded = await against(() => hostsLoad(port, SCALE_SITES));
        const boundedMemory = await memoryOf(server, port);
        await stop(server);
        scale = { seedSeconds, warmSeconds, idle, warm, all, loaded, bounded, boundedMemory };
      } finally {
        rmSync(scaleDir, { recursive: true, force: true });
      }
    }
    await stop(bare);

    const baseline = {
      rps: median(baselines.map((b) => b.rps)),
      low: Math.min(...baselines.map((b) => b.rps)),
      high: Math.max(...baselines.map((b) => b.rps)),
      p99: median(baselines.map((b) => b.p99)),
    };
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const row = (name: string, m: Measured, target?: number) =>
      `| ${name} | ${Math.round(m.rps)} | ${pct(m.ratio)} | ${m.p99} | ${m.p99Ratio.toFixed(1)}× | ${m.failures} | ${target === undefined ? "" : `≥ ${target}%: ${m.ratio * 100 >= target ? "met" : "**not met**"}`} |`;
    const report = [
      "## Public author sites (`npm run bench:sites`)",
      "",
      `${SITES} sites × ${BOOKS} books on the embedded database (PGlite); the production server (\`NODE_ENV=production\`, one process); \`wrk\` (one thread, ${CONNECTIONS} connections), on the same shared 2-core machine as the server (the load generator takes a core, and other work on the machine adds noise). Baseline: a bare Node \`http\` server, in its own process, sending the identical ${page.body.length}-byte book page. Every run is ${ROUNDS} slices of ${DURATION} s, each right after a ${DURATION} s slice of the baseline; the table gives medians, and each ratio is the median of the per-slice ratios. The home-page run asks each of the ${SITES} hosts in turn (the first visit of a host renders, later ones are cached) and is compared with the book-page baseline.`,
      "",
      `Baseline: median ${Math.round(baseline.rps)} requests/s (slices from ${Math.round(baseline.low)} to ${Math.round(baseline.high)}), p99 ${baseline.p99} ms.`,
      "",
      "| run | requests/s | of baseline | p99 ms | p99 vs baseline | errors + non-2xx | target |",
      "|---|---:|---:|---:|---:|---:|---|",
      row("book page, cached", cached, 80),
      row("book page, cache off (`PAGE_CACHE=false`): rendered every time, its site's context kept", uncached, 5),
      ...(onPostgres ? [row("the same on PostgreSQL (same machine)", onPostgres, 5)] : []),
      row("book page, nothing kept (`SITE_CONTEXT_CACHE=false` too): the site read every time", cold),
      ...(coldOnPostgres ? [row("the same on PostgreSQL (same machine)", coldOnPostgres)] : []),
      row(`home pages over all ${SITES} hosts, cache on`, hosts),
      row(`marketing page \`/features\` (${marketingPage.body.length} bytes), app host`, marketing),
      "",
      "A page the page cache does not hold is rendered with one database query when its site was read in the last few minutes (the site's context is kept, and dropped with its pages when the site changes: ADR 040), and with two when not, the site's context and then the page's own (ADR 011). On the embedded database the queries run as named prepared statements inside the server's own process (ADR 013), so they share its one core with the rendering; PostgreSQL runs them in a process of its own.",
      "",
      ...(scale ? scaleReport(scale, row) : []),
      `Measured ${new Date().toISOString().slice(0, 10)} by \`${pgBase ? "BENCH_POSTGRES_URL=… " : ""}npm run bench:sites\`.`,
      "",
    ].join("\n");
    writeSection("Public author sites", report);
    console.log(report);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
