// npm run bench:startup — how long the production server takes to answer /healthz.
//
// For the embedded database (PGlite) and, with BENCH_POSTGRES_URL set, PostgreSQL, every run shown:
// - fresh: a new, empty data directory (or database): migrations, the demo site, then healthy;
// - existing: the same data again, from spawning the process to /healthz answering;
// - restart: SIGTERM to a running, warmed server (a few pages and keep-alive connections left
//   open, as a browser leaves them), the seconds until it exits, then a new process until healthy.
// BENCH_STARTS runs of each (5 by default). Writes its section of bench/RESULTS.md with the
// targets (issue 33): PGlite restart to healthy ≤ 2 s, fresh ≤ 5 s.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildServer, freePort, freshPostgres, loadAverage, median, startServer, writeSection } from "./lib.ts";

const STARTS = Number(process.env.BENCH_STARTS ?? 5);

type Runs = {
  database: string;
  fresh: number[];
  /** PGlite: fresh with the build's template moved aside (initdb and every migration at start, as before ADR 064). */
  initdb: number[];
  existing: number[];
  exit: number[];
  restart: number[];
};

const TEMPLATE = "dist/server/pglite-template.tar.gz";

/** A start on a new data directory with the template moved aside: PGlite runs initdb and every migration. */
async function withoutTemplate(port: number, env: Record<string, string>): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-bench-startup-"));
  renameSync(TEMPLATE, `${TEMPLATE}.aside`);
  try {
    const s = await startServer(dataDir, port, env);
    await terminate(s.child);
    return s.seconds;
  } finally {
    renameSync(`${TEMPLATE}.aside`, TEMPLATE);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** SIGTERM, resolving with the seconds until the process has exited. */
function terminate(child: ChildProcess): Promise<number> {
  const started = performance.now();
  return new Promise((ok) => {
    if (child.exitCode !== null) return ok(0);
    child.once("exit", () => ok((performance.now() - started) / 1000));
    child.kill("SIGTERM");
  });
}

/** A few requests over kept connections that stay open afterwards (a browser's idle keep-alive sockets). */
async function leaveIdleConnections(port: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const ask = (path: string) =>
    new Promise<void>((ok, fail) => {
      const headers = { host: `demo.localhost:${port}` };
      const req = request({ host: "127.0.0.1", port, path, agent, headers }, (res) => {
        res.resume();
        res.on("end", () => ok());
      });
      req.on("error", fail);
      req.end();
    });
  await Promise.all(["/", "/books", "/", "/books"].map(ask));
  return agent;
}

async function measure(database: string, env: Record<string, string>): Promise<Runs> {
  const runs: Runs = { database, fresh: [], initdb: [], existing: [], exit: [], restart: [] };
  const port = await freePort();
  const serverEnv = { SEED_DEMO: "true", ...env };
  for (let i = 0; i < STARTS; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), "bookplate-bench-startup-"));
    const pg =
      process.env.BENCH_POSTGRES_URL && database === "PostgreSQL"
        ? await freshPostgres(process.env.BENCH_POSTGRES_URL)
        : undefined;
    const dbEnv = pg ? { ...serverEnv, DATABASE_URL: pg.url } : serverEnv;
    try {
      if (!pg && existsSync(TEMPLATE)) runs.initdb.push(await withoutTemplate(port, dbEnv));
      const first = await startServer(dataDir, port, dbEnv);
      runs.fresh.push(first.seconds);
      await terminate(first.child);
      const again = await startServer(dataDir, port, dbEnv);
      runs.existing.push(again.seconds);
      const agent = await leaveIdleConnections(port);
      // Measured as an operator sees it: SIGTERM, the old process gone, the new one healthy.
      const exit = await terminate(again.child);
      const next = await startServer(dataDir, port, dbEnv);
      runs.exit.push(exit);
      runs.restart.push(exit + next.seconds);
      agent.destroy();
      await terminate(next.child);
      console.log(
        `${database} run ${i + 1}: fresh ${first.seconds.toFixed(2)} s, existing ${again.seconds.toFixed(2)} s, exit ${exit.toFixed(2)} s, restart ${(exit + next.seconds).toFixed(2)} s`,
      );
    } finally {
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return runs;
}

function report(all: Runs[], before: string, during: string[]) {
  const s = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(", ");
  const goal = (database: string, what: "fresh" | "restart", xs: number[]) => {
    if (database !== "PGlite") return "";
    const limit = what === "fresh" ? 5 : 2;
    return `≤ ${limit} s: ${Math.max(...xs) <= limit ? "met in every run" : median(xs) <= limit ? "met by the median" : "**not met**"}`;
  };
  const lines = [
    "## Start-up (`npm run bench:startup`)",
    "",
    `The production server as \`npm start\` runs it, with the demo site (\`SEED_DEMO=true\`), on this shared 2-core machine; ${STARTS} runs of each, every run shown (seconds). Fresh: a new data directory (or database), from spawning the process to \`/healthz\` answering (migrations and the demo site included); on PGlite each run also starts once with the build's template moved aside, alternating with the run that uses it. Existing: the same data, started again. Exit: SIGTERM to a server that has served a few pages and still holds idle keep-alive connections, until the process has exited. Restart: that exit plus the next start until healthy.`,
    "",
    `Load average (\`/proc/loadavg\`: 1, 5, 15 min) before: ${before}; after each database's runs: ${during.join("; ")}.`,
    "",
    "| database | what | median | every run | goal |",
    "|---|---|---:|---|---|",
  ];
  for (const r of all) {
    lines.push(
      `| ${r.database} | fresh data to healthy | ${median(r.fresh).toFixed(2)} | ${s(r.fresh)} | ${goal(r.database, "fresh", r.fresh)} |`,
    );
    if (r.initdb.length > 0)
      lines.push(
        `| ${r.database} | fresh data to healthy without the build's template (initdb and every migration at start, as before ADR 064) | ${median(r.initdb).toFixed(2)} | ${s(r.initdb)} | |`,
      );
    lines.push(`| ${r.database} | existing data to healthy | ${median(r.existing).toFixed(2)} | ${s(r.existing)} | |`);
    lines.push(`| ${r.database} | SIGTERM to exited | ${median(r.exit).toFixed(2)} | ${s(r.exit)} | |`);
    lines.push(
      `| ${r.database} | restart: SIGTERM to the new process healthy | ${median(r.restart).toFixed(2)} | ${s(r.restart)} | ${goal(r.database, "restart", r.restart)} |`,
    );
  }
  lines.push(
    "",
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC by \`${process.env.BENCH_POSTGRES_URL ? "BENCH_POSTGRES_URL=… " : ""}${process.env.BENCH_STARTS ? `BENCH_STARTS=${STARTS} ` : ""}npm run bench:startup\`.`,
    "",
  );
  return lines.join("\n");
}

async function main() {
  buildServer();
  const before = loadAverage();
  const during: string[] = [];
  const all = [await measure("PGlite", {})];
  during.push(`PGlite ${loadAverage()}`);
  if (process.env.BENCH_POSTGRES_URL) {
    all.push(await measure("PostgreSQL", {}));
    during.push(`PostgreSQL ${loadAverage()}`);
  }
  const section = report(all, before, during);
  if (process.env.BENCH_WRITE !== "false") writeSection("Start-up", section);
  console.log(section);
}

await main();
