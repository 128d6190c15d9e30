// npm run bench:api-tail — GET /api/books (bench/wrk/api-books.lua, 32 connections) on one or
// more built servers side by side, each its own database and signed-in author with 10 books
// (as bench:sites's dashboard rows make them), loaded in turn slice by slice. Every slice prints
// its latency percentiles, rate, server CPU per request (/proc) and the server's garbage
// collections in it (bench/gc-counter.mjs, preloaded), with the load average.
//   TAIL_MAINS=old/dist/server/main.js,dist/server/main.js  bundles to compare, alternating
//                                   (default: this tree's build; a copied dist needs node_modules beside it)
//   TAIL_FLAGS="--cpu-prof"         extra Node flags for every server; TAIL_FLAGS0, TAIL_FLAGS1… for one
//   BENCH_POSTGRES_URL=…            PostgreSQL for the servers listed in TAIL_PG_ONLY (e.g. "1"; all when unset)
//   TAIL_ALSO=/healthz              also a plain slice of this path after each (the machine's own tail)
//   BENCH_SECONDS=5 TAIL_ROUNDS=3   slice length and rounds (after one untimed slice per server)
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { productionCommand } from "../src/testing/production-server.ts";
import { startSmtpCatcher } from "../src/testing/smtp-catcher.ts";
import { buildServer, freePort, freshPostgres, get, loadAverage, stop } from "./lib.ts";
import { script } from "./sites/compare.ts";
import { authorWithBooks } from "./sites/dashboard.ts";

buildServer();
const mains = (process.env.TAIL_MAINS ?? "dist/server/main.js").split(",").map((m) => resolve(m));
const flags = (process.env.TAIL_FLAGS ?? "").split(/\s+/).filter(Boolean);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.TAIL_ROUNDS ?? 3);
const pgBase = process.env.BENCH_POSTGRES_URL ?? "";
const gcDir = mkdtempSync(join(tmpdir(), "api-tail-gc-"));
const smtp = await startSmtpCatcher();
const { env: startEnv, args } = productionCommand();
const nodeFlags = args.filter((a) => a.startsWith("--"));

async function start(main: string, k: number) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "apitail-"));
  const usePg = pgBase && (process.env.TAIL_PG_ONLY ?? String(k)).split(",").includes(String(k));
  const db = usePg ? await freshPostgres(pgBase) : undefined;
  const own = (process.env[`TAIL_FLAGS${k}`] ?? "").split(/\s+/).filter(Boolean);
  const preload = `--import=${join(import.meta.dirname, "gc-counter.mjs")}`;
  const child = spawn(process.execPath, [...nodeFlags, preload, ...flags, ...own, main], {
    env: {
      ...process.env,
      ...startEnv,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      DATABASE_URL: db?.url ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      SEED_DEMO: "false",
      SMTP_URL: smtp.url,
      GC_COUNTER_DIR: gcDir,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (;;) {
    try {
      if ((await get(port, `localhost:${port}`, "/healthz")).status === 200) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  const cookie = await authorWithBooks(port, smtp);
  console.log(JSON.stringify({ started: main, pid: child.pid, port }));
  return { main, port, child, cookie, db, dataDir };
}

const cpuMs = (child: ChildProcess) => {
  const f = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};

/** The server's garbage collections so far (bench/gc-counter.mjs). */
const gcOf = (child: ChildProcess): Record<string, number> => {
  try {
    return JSON.parse(readFileSync(join(gcDir, `gc-${child.pid}.json`), "utf8"));
  } catch {
    return {};
  }
};

function slice(s: Awaited<ReturnType<typeof start>>, path = "") {
  spawnSync("sleep", ["0.3"]); // the counter file is rewritten every 200 ms
  const gcBefore = gcOf(s.child);
  const before = cpuMs(s.child);
  const target = path
    ? ["-H", `Host: localhost:${s.port}`, `http://127.0.0.1:${s.port}${path}`]
    : ["-s", script("api-books.lua"), `http://127.0.0.1:${s.port}/`];
  const r = spawnSync("wrk", ["-t1", "-c32", `-d${seconds}s`, "--latency", "--timeout", "5s", ...target], {
    env: { ...process.env, BENCH_HOST: `localhost:${s.port}`, BENCH_COOKIE: s.cookie },
    encoding: "utf8",
  });
  const cpu = cpuMs(s.child) - before;
  spawnSync("sleep", ["0.3"]);
  const gcAfter = gcOf(s.child);
  const gc = Object.fromEntries(
    Object.keys(gcAfter).map((k) => [k, Math.round((gcAfter[k] ?? 0) - (gcBefore[k] ?? 0))]),
  );
  const out = r.stdout;
  const pick = (re: RegExp) => re.exec(out)?.[1] ?? "?";
  const requests = Number(pick(/(\d+) requests in/));
  return {
    rps: Number(pick(/Requests\/sec:\s+([\d.]+)/)),
    p50: pick(/\s50%\s+(\S+)/),
    p90: pick(/\s90%\s+(\S+)/),
    p99: pick(/\s99%\s+(\S+)/),
    max: pick(/Latency\s+\S+\s+\S+\s+(\S+)/),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    cpuMsPerReq: Number((cpu / requests).toFixed(3)),
    requests,
    gc,
    load: loadAverage(),
  };
}

const servers = [];
for (const [k, m] of mains.entries()) servers.push(await start(m, k));
for (const s of servers) slice(s); // untimed warm-up slice
for (let r = 0; r < rounds; r++) {
  for (const [k, s] of servers.entries()) {
    console.log(JSON.stringify({ round: r, server: k, ...slice(s) }));
    if (process.env.TAIL_ALSO)
      console.log(
        JSON.stringify({ round: r, server: k, path: process.env.TAIL_ALSO, ...slice(s, process.env.TAIL_ALSO) }),
      );
  }
}
for (const s of servers) {
  await stop(s.child);
  await s.db?.drop();
  rmSync(s.dataDir, { recursive: true, force: true });
}
await smtp.close();
rmSync(gcDir, { recursive: true, force: true });
