// Creating posts from the dashboard, builds side by side (a tool for finding where a create goes;
// `BENCH_ROWS=dashboard npm run bench:sites` gives the figures). Each build in CREATE_BUILDS
// (`name=path/to/main.js,…`; default: this tree's build) runs as its own server with its own
// database and a signed-in author; wrk drives POST /api/posts (bench/wrk/create-post.lua) with
// unique then same titles, build after build, slice by slice, BENCH_ROUNDS rounds. Prints req/s,
// p99 and the server's CPU per create (/proc) for every slice, on PostgreSQL also that of the
// database's server processes for that database (a PostgreSQL on this machine).
//   PROFILE_DATABASE_URL=postgres://…  PostgreSQL (a fresh database per build), else PGlite
//   PROFILE=1                          --cpu-prof every server, into PROFILE_OUT
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSmtpCatcher } from "../src/testing/smtp-catcher.ts";
import { signedInAuthor } from "./author.ts";
import {
  backendsMs,
  buildServer,
  cpuMsOf,
  freePort,
  freshPostgres,
  loadAverage,
  startArgs,
  startServer,
  stop,
  wrk,
} from "./lib.ts";
import { script } from "./sites/compare.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const out = process.env.PROFILE_OUT ?? "/tmp/bookplate-profile-creates";
const profile = process.env.PROFILE === "1";
const databaseUrl = process.env.PROFILE_DATABASE_URL ?? "";

buildServer();
const mainJs = startArgs().at(-1) ?? "dist/server/main.js";
const builds = (process.env.CREATE_BUILDS ?? `this=${mainJs}`).split(",").map((b) => {
  const [name, path] = b.split("=") as [string, string];
  return { name, path };
});
mkdirSync(out, { recursive: true });
const smtp = await startSmtpCatcher();
const servers = [];
for (const b of builds) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-creates-"));
  const pg = databaseUrl ? await freshPostgres(databaseUrl) : undefined;
  const env: Record<string, string> = { SMTP_URL: smtp.url, ...(pg ? { DATABASE_URL: pg.url } : {}) };
  const flags = profile ? ["--cpu-prof", `--cpu-prof-dir=${join(out, b.name)}`, "--cpu-prof-interval=200"] : [];
  // The build's bundle in place of this tree's, with the same Node flags.
  const args = startArgs().map((a) => (a === mainJs ? b.path : a));
  const child = (await startServer(dataDir, port, env, flags, args)).child;
  const cookie = await signedInAuthor(port, smtp);
  servers.push({ ...b, port, dataDir, pg, child, cookie });
}

let run = 0;
for (let round = 1; round <= rounds; round++) {
  for (const titles of ["unique", "same"]) {
    for (const s of servers) {
      const before = cpuMsOf(s.child.pid as number);
      const dbBefore = await backendsMs(s.pg?.url);
      const t0 = performance.now();
      const res = await wrk({
        url: `http://127.0.0.1:${s.port}/`,
        scriptFile: script("create-post.lua"),
        seconds,
        connections: 32,
        env: {
          BENCH_HOST: `localhost:${s.port}`,
          BENCH_COOKIE: s.cookie,
          BENCH_TITLES: titles,
          BENCH_RUN: `${Date.now().toString(36)}-${run++}`,
        },
      });
      const requests = (res.rps * (performance.now() - t0)) / 1000;
      const cpu = cpuMsOf(s.child.pid as number) - before;
      const dbCpu = (await backendsMs(s.pg?.url)) - dbBefore;
      console.log(
        JSON.stringify({
          round,
          build: s.name,
          titles,
          rps: Math.round(res.rps),
          p99: res.p99,
          cpuMsPerCreate: Number((cpu / requests).toFixed(2)),
          ...(s.pg ? { databaseCpuMsPerCreate: Number((dbCpu / requests).toFixed(2)) } : {}),
          errors: res.errors,
          non2xx: res.non2xx,
          load: loadAverage(),
        }),
      );
    }
  }
}
for (const s of servers) {
  await stop(s.child);
  await s.pg?.drop();
  rmSync(s.dataDir, { recursive: true, force: true });
}
await smtp.close();
