// npm run bench:sites — public author pages and the dashboard's API, as ratios against a bare
// Node http server sending the identical bytes, measured in the same run on the same machine.
//
// Settings (environment; the defaults are the full run):
//   BENCH_SECONDS=5        seconds per slice
//   BENCH_ROUNDS=3         slices per comparison, each after a baseline slice
//   BENCH_SITES=1000       seeded sites (10 books each)
//   BENCH_POSTGRES_URL=    a PostgreSQL server: every database row again on a fresh database there
//   BENCH_SCALE_SITES=0    the scale run's sites (10000 to run it; see bench/sites/scale.ts)
//   BENCH_ROWS=            only these rows, comma-separated, of: nginx, cached, warm, marketing,
//                          dashboard, first-round, uncached, cold (the others show as skipped, and
//                          bench/RESULTS.md is left as it is: a partial run only prints its table)
// A short run while developing: BENCH_SECONDS=2 BENCH_ROUNDS=1 BENCH_SITES=100 npm run bench:sites
//
// 1. Seeds the sites into a fresh embedded database (and PostgreSQL when offered).
// 2. Baselines: the bare server and nginx (installed from Debian when missing; the row is skipped,
//    saying why, when it cannot be), both sending the cached book page's bytes.
// 3. On each database: the cached book page, the 1,000 hosts warm, the marketing page, the
//    dashboard (GET /api/books, creating posts with unique and with same titles) on one server;
//    the 1,000 hosts' first round on a fresh server per slice; the uncached book page, and with
//    nothing kept, on servers started with those caches off.
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
import { against, BOOKS, load, type Measured, script } from "./sites/compare.ts";
import { authorWithBooks, dashboardLoads } from "./sites/dashboard.ts";
import { commandLine, intro, outro, rateOf, ratioAndP99, ratioAtLeast, ratioEverySlice, row } from "./sites/report.ts";
import { SCALE_SITES, type ScaleRun, scaleReport, scaleRun, warmHomePages } from "./sites/scale.ts";
import { SITES, seed } from "./sites/seed.ts";

type Rows = {
  cached?: Measured;
  firstRound?: Measured;
  warm?: Measured;
  marketing?: Measured;
  uncached?: Measured;
  cold?: Measured;
  books?: Measured;
  uniquePosts?: Measured;
  samePosts?: Measured;
};

const ROW_NAMES = ["nginx", "cached", "warm", "marketing", "dashboard", "first-round", "uncached", "cold"] as const;
type RowName = (typeof ROW_NAMES)[number];

/** The rows BENCH_ROWS asks for (every row when unset). */
function selectedRows(): Set<RowName> {
  const asked = (process.env.BENCH_ROWS ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  if (asked.length === 0) return new Set(ROW_NAMES);
  const unknown = asked.filter((x) => !(ROW_NAMES as readonly string[]).includes(x));
  if (unknown.length) throw new Error(`BENCH_ROWS: unknown row ${unknown.join(", ")} (rows: ${ROW_NAMES.join(", ")})`);
  return new Set(asked as RowName[]);
}

const ROWS = selectedRows();
const PARTIAL = ROWS.size < ROW_NAMES.length;

/** Home pages of `sites` hosts in turn (bench/wrk/hosts.lua); `once`: one pass over every host, then stop. */
function hostsLoad(port: number, sites: number, once = false) {
  const opts = {
    url: `http://127.0.0.1:${port}/`,
    scriptFile: script("hosts.lua"),
    env: { BENCH_SITES: String(sites), BENCH_PORT: String(port), BENCH_ONCE: once ? "1" : "0" },
  };
  // The first pass ends when every host has answered (the duration is only a bound).
  return once ? wrk({ ...opts, seconds: 300, connections: 32 }) : load(opts);
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
}): Promise<Rows> {
  const port = await freePort();
  const env = { SMTP_URL: o.smtpUrl, ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}) };
  const host = `site0000.localhost:${port}`;
  const bookPath = `/book/${o.bookSlug}`;
  const bookLoad = () =>
    load({ url: `http://127.0.0.1:${port}${bookPath}`, headers: { Host: host, "User-Agent": "bench" } });
  const vs = (run: () => ReturnType<typeof load>, prepare?: () => Promise<void>) => against(o.baseUrl, run, prepare);
  let server: ChildProcess | undefined;
  const r: Rows = {};
  try {
    if (ROWS.has("cached") || ROWS.has("warm") || ROWS.has("marketing") || ROWS.has("dashboard")) {
      server = (await startServer(o.dataDir, port, env)).child;
      if ((await get(port, host, bookPath)).status !== 200) throw new Error(`${o.name}: the book page failed`);
      if (ROWS.has("cached")) {
        console.log(`${o.name}: cached book page…`);
        r.cached = await vs(bookLoad);
      }
      if (ROWS.has("warm")) {
        console.log(`${o.name}: ${SITES} hosts, warm…`);
        await warmHomePages(port, SITES);
        r.warm = await vs(() => hostsLoad(port, SITES));
      }
      if (ROWS.has("marketing")) {
        console.log(`${o.name}: marketing page…`);
        const app = `localhost:${port}`;
        r.marketing = await vs(() =>
          load({ url: `http://127.0.0.1:${port}/features`, headers: { Host: app, "User-Agent": "bench" } }),
        );
      }
      if (ROWS.has("dashboard")) {
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

    if (ROWS.has("first-round")) {
      console.log(`${o.name}: ${SITES} hosts, first round (a fresh server each slice)…`);
      const fresh = async () => {
        if (server) await stop(server);
        server = (await startServer(o.dataDir, port, env)).child;
      };
      r.firstRound = await vs(() => hostsLoad(port, SITES, true), fresh);
      if (server) await stop(server);
      server = undefined;
    }

    if (ROWS.has("uncached")) {
      console.log(`${o.name}: book page, cache off…`);
      server = (await startServer(o.dataDir, port, { ...env, PAGE_CACHE: "false" })).child;
      r.uncached = await vs(bookLoad);
      await stop(server);
      server = undefined;
    }
    if (ROWS.has("cold")) {
      console.log(`${o.name}: book page, nothing kept…`);
      server = (await startServer(o.dataDir, port, { ...env, PAGE_CACHE: "false", SITE_CONTEXT_CACHE: "false" })).child;
      r.cold = await vs(bookLoad);
    }
    return r;
  } finally {
    if (server) await stop(server);
  }
}

function rowsOf(name: string, r: Rows, pglite: boolean): string[] {
  const h = `${SITES.toLocaleString("en-GB")} author hosts`;
  const vsUncached = (share: number, p99: number) =>
    r.uncached ? rateOf(r.uncached, share, "uncached page", p99) : undefined;
  return [
    row("cached book page", name, r.cached, ratioEverySlice(0.8)),
    row(`${h}, first round (every page renders once)`, name, r.firstRound, ratioAndP99(0.3, 150)),
    row(`${h}, warm`, name, r.warm, ratioAtLeast(0.7)),
    row("uncached book page (`PAGE_CACHE=false`)", name, r.uncached, ratioAtLeast(pglite ? 0.04 : 0.06)),
    row("book page, nothing kept (`SITE_CONTEXT_CACHE=false` too)", name, r.cold),
    row(`dashboard \`GET /api/books\` (${BOOKS} books, signed in)`, name, r.books, vsUncached(1, 100)),
    row("dashboard: create a post, unique titles", name, r.uniquePosts, vsUncached(0.5, 150)),
    row("dashboard: create a post, all the same title", name, r.samePosts, vsUncached(0.5, 150)),
    row("marketing page `/features`, app host", name, r.marketing),
  ];
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
    children.push(await startBare(bodyFile, contentType, barePort));
    const baseUrl = `http://127.0.0.1:${barePort}/`;
    const nginxPort = await freePort();
    const nginx = ROWS.has("nginx")
      ? await startNginx(dataDir, bodyFile, contentType, nginxPort)
      : "not among BENCH_ROWS";
    let nginxRow: Measured | undefined;
    if (typeof nginx === "string") console.log(`nginx row skipped: ${nginx}`);
    else {
      children.push(nginx);
      console.log("nginx…");
      nginxRow = await against(baseUrl, () => load({ url: `http://127.0.0.1:${nginxPort}/` }));
    }

    const common = { baseUrl, smtpUrl: smtp.url, smtp };
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
    if (SCALE_SITES > 0) scale = await scaleRun(port, (sites) => against(baseUrl, () => hostsLoad(port, sites)));

    const command = commandLine();
    const report = [
      ...intro({ sites: SITES, books: BOOKS, pageBytes: page.body.length, loadBefore, command }),
      row("nginx, the same bytes as a static file (the ceiling)", "—", nginxRow),
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
    if (PARTIAL) console.log("BENCH_ROWS: a partial run, bench/RESULTS.md left as it is");
    else writeSection("Public author sites", report);
    console.log(report);
  } finally {
    for (const c of children) await stop(c);
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
