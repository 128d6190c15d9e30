// npm run bench:sites — public author pages and the dashboard's API, as ratios against a bare
// Node http server sending the identical bytes, measured in the same run on the same machine.
//
// Settings (environment; the defaults are the full run):
//   BENCH_SECONDS=5        seconds per slice
//   BENCH_ROUNDS=3         slices per comparison, each after a baseline slice
//   BENCH_SITES=1000       seeded sites (10 books each)
//   BENCH_POSTGRES_URL=    a PostgreSQL server: every database row again on a fresh database there
//   BENCH_SCALE_SITES=0    the scale run's sites (10000 to run it; see bench/sites/scale.ts)
//   BENCH_PIECE_SECONDS=1  a steady-state slice takes turns with its baseline in pieces this long
//   BENCH_ROWS=            only these rows, by name, comma-separated (all when unset): twin, nginx,
//                          cached, warm, marketing, dashboard, first, once, uncached, cold — e.g.
//                          BENCH_ROWS=first,uncached to compare the render path alone
// A short run while developing: BENCH_SECONDS=2 BENCH_ROUNDS=1 BENCH_SITES=100 npm run bench:sites
//
// 1. Seeds the sites into a fresh embedded database (and PostgreSQL when offered).
// 2. Baselines: the bare server, a second bare server measured against it (the run's noise floor:
//    the same code and bytes) and nginx (installed from Debian when missing; the row is skipped,
//    saying why, when it cannot be), all sending the cached book page's bytes.
// 3. On each database: the cached book page, the 1,000 hosts warm, the marketing page, the
//    dashboard (GET /api/books, creating posts with unique and with same titles) on one server;
//    the 1,000 hosts' first round on a fresh server per slice (asked in turn for the slice, as
//    the issue measured it; and once each, every request a render); the uncached book page, and
//    with nothing kept, on servers started with those caches off.
// 4. Writes its section of bench/RESULTS.md.
//
// Load comes from wrk (C, from Debian; installed here when missing), driven by the Lua scripts
// in bench/wrk/: a load generator written in JavaScript tops out near the bare server it is
// meant to measure, which squeezes every ratio.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSmtpCatcher } from "../src/testing/smtp-catcher.ts";
import {
  buildServer,
  ensureWrk,
  freePort,
  freshPostgres,
  get,
  loadAverage,
  startServer,
  stop,
  writeSection,
  wrk,
} from "./lib.ts";
import { startBare, startNginx } from "./sites/baselines.ts";
import { against, BOOKS, DURATION, load, type Measured, script } from "./sites/compare.ts";
import { authorWithBooks, dashboardLoads } from "./sites/dashboard.ts";
import { commandLine, intro, outro, rateOf, ratioAndP99, ratioAtLeast, ratioEverySlice, row } from "./sites/report.ts";
import { SCALE_SITES, type ScaleRun, scaleReport, scaleRun, warmHomePages } from "./sites/scale.ts";
import { SITES, seed } from "./sites/seed.ts";

type Rows = {
  cached?: Measured;
  firstRound?: Measured;
  firstOnce?: Measured;
  warm?: Measured;
  marketing?: Measured;
  uncached?: Measured;
  cold?: Measured;
  books?: Measured;
  uniquePosts?: Measured;
  samePosts?: Measured;
};

const ROW_NAMES = [
  "twin",
  "nginx",
  "cached",
  "warm",
  "marketing",
  "dashboard",
  "first",
  "once",
  "uncached",
  "cold",
] as const;
type RowName = (typeof ROW_NAMES)[number];
const chosenRows = (process.env.BENCH_ROWS ?? "")
  .split(",")
  .map((x) => x.trim())
  .filter(Boolean);
for (const name of chosenRows) {
  if (!ROW_NAMES.includes(name as RowName)) throw new Error(`BENCH_ROWS: no row "${name}" (${ROW_NAMES.join(", ")})`);
}
/** Whether a row is measured in this run (BENCH_ROWS). */
const wanted = (name: RowName) => chosenRows.length === 0 || chosenRows.includes(name);

/** Home pages of `sites` hosts in turn (bench/wrk/hosts.lua); `once`: one pass over every host, then stop. */
function hostsLoad(port: number, sites: number, once = false, seconds?: number) {
  const opts = {
    url: `http://127.0.0.1:${port}/`,
    scriptFile: script("hosts.lua"),
    env: { BENCH_SITES: String(sites), BENCH_PORT: String(port), BENCH_ONCE: once ? "1" : "0" },
  };
  // The first pass ends when every host has answered (the duration is only a bound).
  return once ? wrk({ ...opts, seconds: 300, connections: 32 }) : load(opts, seconds);
}

/** Every row on one database (PGlite in `dataDir`, or PostgreSQL at `databaseUrl`). */
async function measureDatabase(o: {
  name: string;
  dataDir: string;
  databaseUrl: string;
  bookSlug: string;
  baseUrl: string;
  smtpUrl: string;
  smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  basePid: number | undefined;
}): Promise<Rows> {
  const port = await freePort();
  const env = { SMTP_URL: o.smtpUrl, ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}) };
  const host = `site0000.localhost:${port}`;
  const bookPath = `/book/${o.bookSlug}`;
  const bookLoad = (seconds?: number) =>
    load({ url: `http://127.0.0.1:${port}${bookPath}`, headers: { Host: host, "User-Agent": "bench" } }, seconds);
  let server: ChildProcess | undefined;
  const cpu = { base: o.basePid, run: () => server?.pid };
  type Run = (seconds?: number) => ReturnType<typeof load>;
  const vs = (run: Run) => against(o.baseUrl, run, { cpu });
  /** A cold row: a fresh server before each slice. */
  const cold = (run: Run, prepare: () => Promise<void>) => against(o.baseUrl, run, { prepare });
  /** A row about a server in its steady state: measured after one untimed slice of the same load. */
  const steady = (run: Run) => against(o.baseUrl, run, { warmUp: true, cpu });
  const r: Rows = {};
  try {
    if (wanted("cached") || wanted("warm") || wanted("marketing") || wanted("dashboard")) {
      server = (await startServer(o.dataDir, port, env)).child;
      if ((await get(port, host, bookPath)).status !== 200) throw new Error(`${o.name}: the book page failed`);
      if (wanted("cached")) {
        console.log(`${o.name}: cached book page…`);
        r.cached = await steady(bookLoad);
      }
      if (wanted("warm")) {
        console.log(`${o.name}: ${SITES} hosts, warm…`);
        await warmHomePages(port, SITES);
        r.warm = await steady((seconds) => hostsLoad(port, SITES, false, seconds));
      }
      if (wanted("marketing")) {
        console.log(`${o.name}: marketing page…`);
        const app = `localhost:${port}`;
        r.marketing = await steady((seconds) =>
          load({ url: `http://127.0.0.1:${port}/features`, headers: { Host: app, "User-Agent": "bench" } }, seconds),
        );
      }
      if (wanted("dashboard")) {
        console.log(`${o.name}: dashboard…`);
        const cookie = await authorWithBooks(port, o.smtp);
        const dash = dashboardLoads(port, cookie);
        r.books = await vs(dash.books);
        r.uniquePosts = await vs(dash.uniquePosts);
        r.samePosts = await vs(dash.samePosts);
      }
      await stop(server);
      server = undefined;
    }

    const fresh = async () => {
      if (server) await stop(server);
      server = (await startServer(o.dataDir, port, env)).child;
    };
    if (wanted("first")) {
      // As the issue measured it: a fresh server, the hosts asked in turn for the slice; the
      // first ask of each host renders, the later ones find its page cached.
      console.log(`${o.name}: ${SITES} hosts, first round (a fresh server each slice, ${DURATION} s)…`);
      r.firstRound = await cold(() => hostsLoad(port, SITES), fresh);
      if (server) await stop(server);
      server = undefined;
    }
    if (wanted("once")) {
      console.log(`${o.name}: ${SITES} hosts, each asked once (a fresh server each slice)…`);
      r.firstOnce = await cold(() => hostsLoad(port, SITES, true), fresh);
      if (server) await stop(server);
      server = undefined;
    }

    if (wanted("uncached")) {
      console.log(`${o.name}: book page, cache off…`);
      server = (await startServer(o.dataDir, port, { ...env, PAGE_CACHE: "false" })).child;
      r.uncached = await steady(bookLoad);
      await stop(server);
      server = undefined;
    }
    if (wanted("cold")) {
      console.log(`${o.name}: book page, nothing kept…`);
      server = (await startServer(o.dataDir, port, { ...env, PAGE_CACHE: "false", SITE_CONTEXT_CACHE: "false" })).child;
      r.cold = await steady(bookLoad);
    }
    return r;
  } finally {
    if (server) await stop(server);
  }
}

function rowsOf(name: string, r: Rows, pglite: boolean): string[] {
  const h = `${SITES.toLocaleString("en-GB")} author hosts`;
  // With BENCH_ROWS, the rows not asked for are left out rather than shown as skipped.
  const shown = (line: string) => chosenRows.length === 0 || !line.includes("| skipped |");
  return [
    row("cached book page", name, r.cached, ratioEverySlice(0.8)),
    row(
      `${h}, first round (a fresh server, hosts in turn for ${DURATION} s)`,
      name,
      r.firstRound,
      ratioAndP99(0.3, 150),
    ),
    row(`${h}, each asked once (a fresh server, every request a render)`, name, r.firstOnce),
    row(`${h}, warm`, name, r.warm, ratioAtLeast(0.7)),
    row("uncached book page (`PAGE_CACHE=false`)", name, r.uncached, ratioAtLeast(pglite ? 0.04 : 0.06)),
    row("book page, nothing kept (`SITE_CONTEXT_CACHE=false` too)", name, r.cold),
    row(
      `dashboard \`GET /api/books\` (${BOOKS} books, signed in)`,
      name,
      r.books,
      r.uncached && rateOf(r.uncached, 1, "uncached page", 100),
    ),
    row(
      "dashboard: create a post, unique titles",
      name,
      r.uniquePosts,
      r.uncached && rateOf(r.uncached, 0.5, "uncached page", 150),
    ),
    row(
      "dashboard: create a post, all the same title",
      name,
      r.samePosts,
      r.uncached && rateOf(r.uncached, 0.5, "uncached page", 150),
    ),
    row("marketing page `/features`, app host", name, r.marketing),
  ].filter(shown);
}

async function main() {
  ensureWrk();
  buildServer();
  const loadBefore = loadAverage();
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-bench-"));
  const smtp = await startSmtpCatcher();
  const children: ChildProcess[] = [];
  try {
    console.log(`seeding ${SITES} sites × ${BOOKS} books…`);
    const bookIds = await seed(dataDir);
    const port = await freePort();
    const host = `site0000.localhost:${port}`;
    const probe = await startServer(dataDir, port, {});
    const page = await get(port, host, `/book/${bookIds[0]}`);
    await stop(probe.child);
    if (page.status !== 200) throw new Error(`book page answered ${page.status}`);
    console.log(`book page: ${page.body.length} bytes`);

    const bodyFile = join(dataDir, "page.html");
    writeFileSync(bodyFile, page.body);
    const contentType = String(page.headers["content-type"] ?? "text/html");
    const barePort = await freePort();
    const bare = await startBare(bodyFile, contentType, barePort);
    children.push(bare);
    const baseUrl = `http://127.0.0.1:${barePort}/`;
    // The noise floor: a second bare server, the same code and bytes, measured as a row is.
    let twinRow: Measured | undefined;
    if (wanted("twin")) {
      const twinPort = await freePort();
      const twin = await startBare(bodyFile, contentType, twinPort);
      children.push(twin);
      console.log("a second bare server (the noise floor)…");
      twinRow = await against(baseUrl, (seconds) => load({ url: `http://127.0.0.1:${twinPort}/` }, seconds), {
        warmUp: true,
        cpu: { base: bare.pid, run: () => twin.pid },
      });
      await stop(twin);
    }
    const nginxPort = await freePort();
    const nginx = wanted("nginx")
      ? await startNginx(dataDir, bodyFile, contentType, nginxPort)
      : "not asked for (BENCH_ROWS)";
    let nginxRow: Measured | undefined;
    if (!wanted("nginx")) console.log("nginx row not asked for (BENCH_ROWS)");
    else if (typeof nginx === "string") console.log(`nginx row skipped: ${nginx}`);
    else {
      children.push(nginx);
      console.log("nginx…");
      nginxRow = await against(baseUrl, (seconds) => load({ url: `http://127.0.0.1:${nginxPort}/` }, seconds));
    }

    const common = { baseUrl, smtpUrl: smtp.url, smtp, basePid: bare.pid };
    const pglite = await measureDatabase({
      ...common,
      name: "PGlite",
      dataDir,
      databaseUrl: "",
      bookSlug: bookIds[0] ?? "",
    });
    let postgres: Rows | undefined;
    const pgBase = process.env.BENCH_POSTGRES_URL;
    if (pgBase) {
      const fresh = await freshPostgres(pgBase);
      const pgDir = mkdtempSync(join(tmpdir(), "bookplate-bench-pg-"));
      try {
        console.log("seeding PostgreSQL…");
        const pgBooks = await seed(dataDir, fresh.url);
        postgres = await measureDatabase({
          ...common,
          name: "PostgreSQL",
          dataDir: pgDir,
          databaseUrl: fresh.url,
          bookSlug: pgBooks[0] ?? "",
        });
      } finally {
        await fresh.drop();
        rmSync(pgDir, { recursive: true, force: true });
      }
    }
    let scale: ScaleRun | undefined;
    if (SCALE_SITES > 0)
      scale = await scaleRun(port, (sites) => against(baseUrl, (seconds) => hostsLoad(port, sites, false, seconds)));

    const command = commandLine();
    const report = [
      ...intro({ sites: SITES, books: BOOKS, pageBytes: page.body.length, loadBefore, command }),
      ...(wanted("twin") ? [row("a second bare server, the same code and bytes (the noise floor)", "—", twinRow)] : []),
      ...(wanted("nginx") ? [row("nginx, the same bytes as a static file (the ceiling)", "—", nginxRow)] : []),
      ...rowsOf("PGlite", pglite, true),
      ...(postgres ? rowsOf("PostgreSQL", postgres, false) : []),
      ...outro({
        loadAfter: loadAverage(),
        command,
        notes: [
          ...(typeof nginx === "string" ? [`nginx was skipped: ${nginx}.`, ""] : []),
          ...(pgBase ? [] : ["PostgreSQL rows: set `BENCH_POSTGRES_URL` to a PostgreSQL server.", ""]),
          ...(scale ? scaleReport(scale) : []),
        ],
      }),
    ].join("\n");
    // A run of some rows only prints them: the section in bench/RESULTS.md stays a full run.
    if (chosenRows.length === 0) writeSection("Public author sites", report);
    console.log(report);
  } finally {
    for (const c of children) await stop(c);
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
