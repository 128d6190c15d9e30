// The "1,000 author hosts, warm" row, builds side by side (a tool for proving a change to the
// cached-hit path with the server's own CPU; `BENCH_ROWS=warm npm run bench:sites` gives the
// ratio). Seeds BENCH_SITES sites once into WARM_DATA (kept for the next run; on PostgreSQL a
// fresh database per build), starts one server per build in WARM_BUILDS (`name=path/to/main.js,…`;
// default: this tree's build), caches every host's home page, runs one untimed slice each, then
// BENCH_ROUNDS rounds of a BENCH_SECONDS slice per build in turn (bench/wrk/hosts.lua, one
// thread, 32 connections). Prints, per slice: req/s, p99, the server's CPU per request (/proc,
// user + system, µs), on PostgreSQL also that of the database's server processes, the GCs the
// server's `--trace-gc` reported in the slice, and the machine's load average.
//   WARM_DATABASE_URL=postgres://…  PostgreSQL (a fresh database per build), else PGlite
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  backendsMs,
  buildServer,
  cpuMsOf,
  freePort,
  freshPostgres,
  loadAverage,
  median,
  startArgs,
  startServer,
  stop,
  wrk,
} from "./lib.ts";
import { script } from "./sites/compare.ts";
import { warmHomePages } from "./sites/scale.ts";
import { SITES, seed } from "./sites/seed.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const databaseUrl = process.env.WARM_DATABASE_URL ?? "";
const template = process.env.WARM_DATA ?? `/tmp/bookplate-warm-${SITES}`;

buildServer();
const mainJs = startArgs().at(-1) ?? "dist/server/main.js";
const builds = (process.env.WARM_BUILDS ?? `this=${mainJs}`).split(",").map((b) => {
  const [name, path] = b.split("=") as [string, string];
  return { name, path };
});
if (!databaseUrl && !existsSync(join(template, "seeded"))) {
  rmSync(template, { recursive: true, force: true });
  mkdirSync(template, { recursive: true });
  await seed(template, "", SITES);
  mkdirSync(join(template, "seeded"));
}

const servers = [];
for (const b of builds) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-warm-"));
  let db: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  if (databaseUrl) {
    db = await freshPostgres(databaseUrl);
    await seed(dataDir, db.url, SITES);
  } else cpSync(template, dataDir, { recursive: true });
  rmSync(join(dataDir, "bookplate.lock"), { force: true });
  const args = startArgs().map((a) => (a === mainJs ? b.path : a));
  const child = (await startServer(dataDir, port, db ? { DATABASE_URL: db.url } : {}, ["--trace-gc"], args)).child;
  let gcs = { scavenge: 0, markCompact: 0 };
  child.stdout?.on("data", (d: Buffer) => {
    const text = d.toString();
    gcs = {
      scavenge: gcs.scavenge + (text.match(/Scavenge/g)?.length ?? 0),
      markCompact: gcs.markCompact + (text.match(/Mark-Compact/g)?.length ?? 0),
    };
  });
  await warmHomePages(port, SITES);
  servers.push({ ...b, port, dataDir, db, child, gcs: () => gcs });
}

const hosts = (port: number, sites = SITES) =>
  wrk({
    url: `http://127.0.0.1:${port}/`,
    scriptFile: script("hosts.lua"),
    env: { BENCH_SITES: String(sites), BENCH_PORT: String(port), BENCH_ONCE: "0" },
    seconds,
    connections: 32,
  });
for (const s of servers) await hosts(s.port); // untimed: the just-started process's compiling
const perBuild = new Map<string, number[]>();
/** WARM_ONE_HOST=1: each slice is followed by one of the first host's home page alone (the same script). */
const kinds = process.env.WARM_ONE_HOST === "1" ? [SITES, 1] : [SITES];
for (let round = 1; round <= rounds; round++) {
  for (const [s, sites] of (round % 2 ? servers : [...servers].reverse()).flatMap((s) =>
    kinds.map((k) => [s, k] as const),
  )) {
    const name = sites === SITES ? s.name : `${s.name}, one host`;
    const pid = s.child.pid as number;
    const before = cpuMsOf(pid);
    const dbBefore = await backendsMs(s.db?.url);
    const gcBefore = s.gcs();
    const t0 = performance.now();
    const res = await hosts(s.port, sites);
    const requests = (res.rps * (performance.now() - t0)) / 1000;
    const us = ((cpuMsOf(pid) - before) * 1000) / requests;
    const dbUs = (((await backendsMs(s.db?.url)) - dbBefore) * 1000) / requests;
    perBuild.set(name, [...(perBuild.get(name) ?? []), us]);
    console.log(
      JSON.stringify({
        round,
        build: name,
        rps: Math.round(res.rps),
        p99: res.p99,
        cpuUsPerRequest: Number(us.toFixed(1)),
        ...(s.db ? { databaseCpuUsPerRequest: Number(dbUs.toFixed(1)) } : {}),
        scavenges: s.gcs().scavenge - gcBefore.scavenge,
        markCompacts: s.gcs().markCompact - gcBefore.markCompact,
        errors: res.errors,
        non2xx: res.non2xx,
        load: loadAverage(),
      }),
    );
  }
}
for (const [name, list] of perBuild) {
  console.log(`${name}: CPU µs per request, median ${median(list).toFixed(1)}`);
}
for (const s of servers) {
  await stop(s.child);
  await s.db?.drop();
  rmSync(s.dataDir, { recursive: true, force: true });
}
