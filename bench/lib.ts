// What the benchmarks share: the production server process as `npm start` runs it, free ports,
// fresh PostgreSQL databases, plain HTTP requests, wrk (installed from Debian when missing) and
// the server's memory as /proc and /metrics tell it.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { productionCommand } from "../src/testing/production-server.ts";
import { freshPostgres as freshTestPostgres } from "../src/testing/resources.ts";

export { writeSection } from "../src/testing/bench-results.ts";

/**
 * `npm start`'s command after `node` (Node's flags and the built server); BENCH_NODE_FLAGS
 * replaces its flags (to compare settings: `BENCH_NODE_FLAGS="--max-semi-space-size=16"`).
 */
export function startArgs(): string[] {
  // BENCH_MAIN: another build's server/main.js instead of this one's (a copied dist needs
  // node_modules beside it), to compare the same rows on two builds.
  const main = process.env.BENCH_MAIN;
  const args = productionCommand().args.map((a) => (main && a.endsWith("server/main.js") ? main : a));
  const flags = process.env.BENCH_NODE_FLAGS;
  if (flags === undefined) return args;
  return [...flags.split(/\s+/).filter(Boolean), ...args.filter((a) => !a.startsWith("--"))];
}

/** Builds what `npm start` runs (the web app and the server) when stale. */
export function buildServer() {
  const r = spawnSync(process.execPath, ["scripts/build-if-stale.mjs"], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("the build failed");
}

export type Started = { child: ChildProcess; seconds: number };

/** Starts the production server; resolves once /healthz answers, with the seconds that took. */
export function startServer(
  dataDir: string,
  port: number,
  env: Record<string, string>,
  extraNodeFlags: string[] = [],
  args: string[] = startArgs(),
): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, [...extraNodeFlags, ...args], {
    env: {
      ...process.env,
      ...productionCommand().env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      SEED_DEMO: "false",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((ok, fail) => {
    let asking = false;
    const t = setInterval(async () => {
      if (asking) return;
      asking = true;
      try {
        const r = await get(port, `localhost:${port}`, "/healthz");
        if (r.status === 200) {
          clearInterval(t);
          ok({ child, seconds: (performance.now() - started) / 1000 });
        }
      } catch {
        /* not up yet */
      } finally {
        asking = false;
      }
    }, 20);
    child.on("exit", (code) => {
      clearInterval(t);
      fail(new Error(`server exited with ${code}`));
    });
  });
}

export function stop(child: ChildProcess) {
  return new Promise<void>((ok) => {
    if (child.exitCode !== null) return ok();
    child.once("exit", () => ok());
    child.kill("SIGTERM");
  });
}

export { freePort } from "../src/testing/resources.ts";

/** A fresh database for a benchmark on the PostgreSQL server at `base`, dropped by the returned function. */
export const freshPostgres = (base: string) => freshTestPostgres(base, "bookplate_bench");

export type Answer = { status: number; body: Buffer; headers: Record<string, string | string[] | undefined> };

/** One HTTP request to 127.0.0.1:`port` naming `host` (no connection reuse, no redirects). */
export function get(
  port: number,
  host: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<Answer>((ok, fail) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: opts.method ?? "GET",
        headers: { host, "user-agent": "bench", ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
      },
    );
    req.on("error", fail);
    req.end(opts.body);
  });
}

export type Result = { rps: number; p99: number; errors: number; non2xx: number; requests: number };

/** wrk from Debian: installed on first use when missing (the machine's package manager). */
export function ensureWrk() {
  if (spawnSync("wrk", ["--version"]).error === undefined) return;
  console.log("installing wrk (apt-get)…");
  const r = spawnSync("sh", ["-c", "apt-get update -qq && apt-get install -y -qq wrk"], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("wrk is needed: apt-get install wrk");
}

/** Milliseconds from one of wrk's durations ("812.00us", "1.20ms", "2.01s"). */
function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "ms" ? n : m[2] === "s" ? n * 1000 : n * 60_000;
}

/**
 * One run of wrk (one thread: the machine has two cores, one for the server under test, one for
 * the load). `script` is Lua for per-request paths and headers, or `scriptFile` one of
 * bench/wrk/*.lua, which reads its settings from `env`.
 */
export function wrk(opts: {
  url: string;
  seconds: number;
  connections: number;
  headers?: Record<string, string>;
  script?: string;
  scriptFile?: string;
  env?: Record<string, string>;
}): Promise<Result> {
  const args = ["-t1", `-c${opts.connections}`, `-d${opts.seconds}s`, "--latency", "--timeout", "5s"];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push("-H", `${k}: ${v}`);
  let scriptFile: string | undefined;
  if (opts.script) {
    scriptFile = join(mkdtempSync(join(tmpdir(), "bench-wrk-")), "script.lua");
    writeFileSync(scriptFile, opts.script);
    args.push("-s", scriptFile);
  } else if (opts.scriptFile) args.push("-s", opts.scriptFile);
  args.push(opts.url);
  return new Promise((ok, fail) => {
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...opts.env } });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("error", fail);
    child.on("exit", (code) => {
      if (scriptFile) rmSync(join(scriptFile, ".."), { recursive: true, force: true });
      if (code !== 0) return fail(new Error(`wrk exited with ${code}:\n${out}`));
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
      const p99 = ms(/\s99%\s+(\S+)/.exec(out)?.[1] ?? "");
      const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      const errors = socket ? socket.slice(1).reduce((n, x) => n + Number(x), 0) : 0;
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
      const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN);
      if (!Number.isFinite(rps)) return fail(new Error(`could not read wrk's output:\n${out}`));
      ok({ rps, p99, errors, non2xx, requests });
    });
  });
}

/** A Lua string literal. */
export const lua = (s: string) => JSON.stringify(s);

export type Memory = {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  pages: number;
  cacheMb: number;
};

/** The server's resident memory (/proc) and its heap, external memory and page cache (/metrics), in MB. */
export async function memoryOf(child: ChildProcess, port: number): Promise<Memory> {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const rssMb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
  const metrics = (await get(port, `localhost:${port}`, "/metrics")).body.toString();
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(metrics)?.[1] ?? Number.NaN);
  const mb = (name: string) => gauge(name) / 1024 / 1024;
  return {
    rssMb,
    heapUsedMb: mb("nodejs_heap_size_used_bytes"),
    heapTotalMb: mb("nodejs_heap_size_total_bytes"),
    externalMb: mb("nodejs_external_memory_bytes"),
    pages: gauge("page_cache_pages"),
    cacheMb: mb("page_cache_bytes"),
  };
}

/** The resident memory (MB) of a process, from /proc. */
export function rssOf(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** The CPU time (user + system, ms) a process has used so far, from /proc; 0 when it has ended. */
export function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** On PostgreSQL (on this machine): the CPU so far (ms) of the server processes serving `url`'s database. */
export async function backendsMs(url: string | undefined): Promise<number> {
  if (!url) return 0;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const res = await c.query(
    "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
  );
  await c.end();
  return res.rows.reduce((ms, r: { pid: number }) => ms + cpuMsOf(r.pid), 0);
}

/** The machine's load average, as /proc/loadavg gives it (1, 5 and 15 minutes). */
export function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}
