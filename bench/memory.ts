// npm run bench:memory — how much memory the production server holds, and how fast it starts.
//
// For the embedded database (PGlite) and, with BENCH_POSTGRES_URL set, PostgreSQL:
// 1. Builds what `npm start` runs, then starts it on a fresh data directory (migrations and the
//    demo site) and stops it; then starts it again BENCH_STARTS times on that data: time from
//    spawning the process to /healthz answering (the median is the figure).
// 2. After 10 s idle: resident memory (/proc), V8 heap used and total, external memory, and the
//    page cache's bytes (/metrics).
// 3. Warmed: every page of the demo site (found by following its links) asked twice on its own
//    host, and the owner's preview of each (never cached) on the app host.
// 4. Under load for BENCH_LOAD_SECONDS (60 s by default): three wrk at once — cached demo pages,
//    uncached previews, and the dashboard's API for a signed-in author (signed up through a real
//    SMTP catcher); resident memory sampled every second (the peak is the figure), then after.
// 5. What the heap holds: a heap snapshot of the idle server summed by kind (script sources,
//    other strings, code, closures, objects…), and which packages the bundle loads at start and
//    which only on first use (from esbuild's metafile, dist/server/meta.json).
// 6. Writes its section of bench/RESULTS.md, with the targets (ADR 037): idle ≤ 150 MB on
//    PostgreSQL and ≤ 250 MB on PGlite, under load within 1.5× idle, healthy within 2 s.
import { type ChildProcess, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { productionCommand } from "../src/testing/production-server.ts";
import { startSmtpCatcher } from "../src/testing/smtp-catcher.ts";
import { signedInAuthor } from "./author.ts";
import {
  buildServer,
  ensureWrk,
  freePort,
  freshPostgres,
  get,
  lua,
  type Memory,
  median,
  memoryOf,
  type Result,
  rssOf,
  startArgs,
  startServer,
  stop,
  writeSection,
  wrk,
} from "./lib.ts";

const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const IDLE_SECONDS = 10;
/** What the dashboard reads as an author opens its screens. */
const API_PATHS = [
  "/api/books",
  "/api/profile",
  "/api/site/settings",
  "/api/site/home",
  "/api/posts",
  "/api/site/contact",
];

type Run = {
  database: string;
  firstStart: number;
  starts: number[];
  idle: Memory;
  warm: Memory;
  pages: number;
  peakRss: number;
  loaded: Memory;
  load: { cached: Result; uncached: Result; api: Result };
};

/** Every same-host page the demo site links to that answers 200 with HTML, from its home page outwards. */
async function crawl(port: number, host: string): Promise<string[]> {
  const seen = new Set<string>(["/"]);
  const queue = ["/"];
  const pages: string[] = [];
  while (queue.length > 0) {
    const path = queue.shift() as string;
    const res = await get(port, host, path);
    // Redirects (a store link's /buy/ counts a click and leaves the site) are not pages.
    if (res.status !== 200 || !String(res.headers["content-type"]).startsWith("text/html")) continue;
    pages.push(path);
    for (const m of res.body.toString().matchAll(/href="(\/[^"#?]*)"/g)) {
      const next = m[1] as string;
      if (next.startsWith("/_") || /\/buy\/|\.(xml|txt|woff2|png|webp|jpg|css|js)$/.test(next) || seen.has(next))
        continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return pages;
}

/** A wrk Lua script asking `paths` in turn with these headers. */
function rotate(paths: string[], headers: Record<string, string>) {
  const h = Object.entries(headers)
    .map(([k, v]) => `[${lua(k)}] = ${lua(v)}`)
    .join(", ");
  return `local paths = { ${paths.map(lua).join(", ")} }
local headers = { ${h} }
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i], headers)
end
`;
}

async function measure(database: string, env: Record<string, string>): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-bench-memory-"));
  const smtp = await startSmtpCatcher();
  const port = await freePort();
  const serverEnv = { ...env, SEED_DEMO: "true", SMTP_URL: smtp.url };
  let server: ChildProcess | undefined;
  try {
    console.log(`${database}: first start (migrations, demo site)…`);
    const first = await startServer(dataDir, port, serverEnv);
    await stop(first.child);
    const starts: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const s = await startServer(dataDir, port, serverEnv);
      starts.push(s.seconds);
      if (i < STARTS - 1) await stop(s.child);
      else server = s.child;
    }
    if (!server) throw new Error("no server");
    await sleep(IDLE_SECONDS * 1000);
    const idle = await memoryOf(server, port);

    console.log(`${database}: warming the demo site…`);
    const demoHost = `demo.localhost:${port}`;
    const pages = await crawl(port, demoHost);
    const previews = pages.map((p) => `/author/demo${p === "/" ? "" : p}`);
    for (let round = 0; round < 2; round++) {
      for (const p of pages) await get(port, demoHost, p);
      for (const p of previews) await get(port, `localhost:${port}`, p);
    }
    const warm = await memoryOf(server, port);

    const cookie = await signedInAuthor(port, smtp);
    for (const path of API_PATHS) {
      const res = await get(port, `localhost:${port}`, path, { headers: { cookie } });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.body.toString().slice(0, 200)}`);
    }
    console.log(`${database}: ${LOAD_SECONDS} s of mixed load…`);
    const running = server;
    let peakRss = rssOf(running);
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssOf(running));
    }, 1000);
    const base = `http://127.0.0.1:${port}/`;
    const [cached, uncached, api] = await Promise.all([
      wrk({
        url: base,
        seconds: LOAD_SECONDS,
        connections: 16,
        script: rotate(pages, { Host: demoHost, "User-Agent": "bench" }),
      }),
      wrk({
        url: base,
        seconds: LOAD_SECONDS,
        connections: 4,
        script: rotate(previews, { Host: `localhost:${port}`, "User-Agent": "bench" }),
      }),
      wrk({
        url: base,
        seconds: LOAD_SECONDS,
        connections: 4,
        script: rotate(API_PATHS, { Host: `localhost:${port}`, Cookie: cookie, "User-Agent": "bench" }),
      }),
    ]);
    clearInterval(sampler);
    peakRss = Math.max(peakRss, rssOf(running));
    const loaded = await memoryOf(running, port);
    return {
      database,
      firstStart: first.seconds,
      starts,
      idle,
      warm,
      pages: pages.length,
      peakRss,
      loaded,
      load: { cached, uncached, api },
    };
  } finally {
    if (server) await stop(server);
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A heap snapshot of the idle server (PGlite, demo site), summed by what the objects are. */
async function heapSnapshot(): Promise<{ totalMb: number; kinds: [string, number][]; scripts: [string, number][] }> {
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-bench-heap-"));
  const file = join(dataDir, "idle.heapsnapshot");
  const port = await freePort();
  // Loaded before the server: writes a snapshot on SIGUSR2 (the production code has no such hook).
  const hook = `data:text/javascript,${encodeURIComponent(
    `import v8 from "node:v8"; process.on("SIGUSR2", () => { v8.writeHeapSnapshot(${JSON.stringify(file)}); console.log("snapshot written"); });`,
  )}`;
  const s = await startServer(dataDir, port, { SEED_DEMO: "true" }, ["--import", hook]);
  try {
    await sleep(IDLE_SECONDS * 1000);
    const written = new Promise<void>((ok) =>
      s.child.stdout?.on("data", (d: Buffer) => d.includes("snapshot") && ok()),
    );
    s.child.kill("SIGUSR2");
    await written;
  } finally {
    await stop(s.child);
  }
  const snap = JSON.parse(readFileSync(file, "utf8")) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  rmSync(dataDir, { recursive: true, force: true });
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [iType, iName, iSize] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [number, number, number];
  const kinds = new Map<string, number>();
  const scripts: [string, number][] = [];
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + iType] as number] as string;
    const name = snap.strings[snap.nodes[i + iName] as number] as string;
    const size = snap.nodes[i + iSize] as number;
    total += size;
    let kind: string;
    if (type.endsWith("string")) {
      // A script's source is kept as one string (for lazy compilation and Function#toString).
      const source = size > 16_384 && /^(import|"use strict"|'use strict'|\/\/|\/\*|var |\(function)/.test(name);
      kind = source ? "script sources" : "other strings";
      if (source) scripts.push([name.slice(0, 60).replace(/\s+/g, " "), size]);
    } else if (type === "code") kind = "code (bytecode, metadata)";
    else if (type === "closure") kind = "closures";
    else if (type === "array" || type === "object shape") kind = "arrays, shapes";
    else if (type === "object" || type === "regexp") kind = name === "system / Context" ? "closures" : "objects";
    else if (type === "native") kind = "ArrayBuffer data (PGlite's WebAssembly memory, buffers)";
    else kind = "other";
    kinds.set(kind, (kinds.get(kind) ?? 0) + size);
  }
  const mb = 1024 * 1024;
  return {
    totalMb: total / mb,
    kinds: [...kinds].map(([k, v]) => [k, v / mb] as [string, number]).sort((a, b) => b[1] - a[1]),
    scripts: scripts.sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / mb]),
  };
}

/**
 * The heap each package adds when imported alone into a fresh Node (used heap after full
 * collections, against Node with nothing imported): the heap by dependency.
 */
function heapByPackage(packages: string[]): [string, number][] {
  const probe = (pkg: string | null) => {
    const code = `${pkg ? `await import(${JSON.stringify(pkg)});` : ""} globalThis.gc(); globalThis.gc(); console.log(process.memoryUsage().heapUsed);`;
    const r = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", code], { encoding: "utf8" });
    return r.status === 0 ? Number(r.stdout.trim()) : Number.NaN;
  };
  const base = probe(null);
  return packages
    .map((p) => [p, (probe(p) - base) / 1024 / 1024] as [string, number])
    .filter(([, mb]) => Number.isFinite(mb))
    .sort((a, b) => b[1] - a[1]);
}

/** Bytes of each package in what the server loads at start, and in what it loads only on first use. */
function bundleByPackage(): { eager: [string, number][]; lazy: [string, number][] } {
  const metaFile = "dist/server/meta.json";
  if (!existsSync(metaFile)) return { eager: [], lazy: [] };
  const meta = JSON.parse(readFileSync(metaFile, "utf8")) as {
    outputs: Record<
      string,
      { imports: { path: string; kind: string }[]; inputs: Record<string, { bytesInOutput: number }> }
    >;
  };
  const entry = Object.keys(meta.outputs).find((k) => k.endsWith("dist/server/main.js")) as string;
  const eagerFiles = new Set<string>();
  const visit = (f: string) => {
    if (eagerFiles.has(f) || !meta.outputs[f]) return;
    eagerFiles.add(f);
    for (const i of meta.outputs[f].imports) if (i.kind === "import-statement") visit(i.path);
  };
  visit(entry);
  const sum = (eager: boolean) => {
    const by = new Map<string, number>();
    for (const [file, out] of Object.entries(meta.outputs)) {
      if (!file.endsWith(".js") || eagerFiles.has(file) !== eager) continue;
      for (const [input, v] of Object.entries(out.inputs)) {
        const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? "(Bookplate's own code)";
        by.set(pkg, (by.get(pkg) ?? 0) + v.bytesInOutput);
      }
    }
    return [...by].sort((a, b) => b[1] - a[1]);
  };
  return { eager: sum(true), lazy: sum(false) };
}

function report(runs: Run[], heap: Awaited<ReturnType<typeof heapSnapshot>>): string {
  const n = (x: number) => String(Math.round(x));
  const targets: Record<string, number> = { PGlite: 250, PostgreSQL: 150 };
  const verdict = (ok: boolean) => (ok ? "met" : "**not met**");
  const lines = [
    "## Memory and start-up (`npm run bench:memory`)",
    "",
    `The production server as \`npm start\` runs it (\`${Object.entries(productionCommand().env)
      .map(([k, v]) => `${k}=${v} `)
      .join(
        "",
      )}node ${startArgs().join(" ")}\`, built first), with the demo site, on this shared 2-core machine. Start-up: from spawning the process to \`/healthz\` answering, on an existing data directory (the median of ${STARTS} starts; the first start on a fresh one, which migrates and seeds the demo, separately). Memory in MB: resident (\`/proc\`), then V8's heap used / total, external (PGlite's WebAssembly memory is here) and the page cache's bytes (\`/metrics\`). Idle: ${IDLE_SECONDS} s after start. Warmed: each of the demo's pages asked twice, and its uncached preview twice. Load: ${LOAD_SECONDS} s of three \`wrk\` at once — cached demo pages (16 connections), uncached previews (4), the dashboard API as a signed-in author (4); its peak is the highest resident figure sampled each second.`,
    "",
    "| database | first start s | start to healthy s | idle | warmed | under load (peak) | after load | peak ÷ idle | targets |",
    "|---|---:|---:|---|---|---:|---|---:|---|",
  ];
  const mem = (m: Memory) =>
    `${n(m.rssMb)} (heap ${n(m.heapUsedMb)}/${n(m.heapTotalMb)}, ext ${n(m.externalMb)}, cache ${m.cacheMb.toFixed(1)})`;
  for (const r of runs) {
    const start = median(r.starts);
    const ratio = r.peakRss / r.idle.rssMb;
    const target = targets[r.database] ?? 0;
    lines.push(
      `| ${r.database} | ${r.firstStart.toFixed(1)} | ${start.toFixed(2)} (${Math.min(...r.starts).toFixed(2)}–${Math.max(...r.starts).toFixed(2)}) | ${mem(r.idle)} | ${mem(r.warm)} | ${n(r.peakRss)} | ${mem(r.loaded)} | ${ratio.toFixed(2)} | idle ≤ ${target}: ${verdict(r.idle.rssMb <= target)}; load ≤ 1.5×: ${verdict(ratio <= 1.5)}; ≤ 2 s: ${verdict(start <= 2)} |`,
    );
  }
  lines.push("", "Load served (requests/s; errors + non-2xx):", "");
  for (const r of runs) {
    const l = (x: Result) => `${n(x.rps)} (${x.errors + x.non2xx})`;
    lines.push(
      `- ${r.database}: cached pages ${l(r.load.cached)}, uncached previews ${l(r.load.uncached)}, dashboard API ${l(r.load.api)}; ${r.pages} demo pages.`,
    );
  }
  const kb = (b: number) => `${Math.round(b / 1024)} KB`;
  const bundle = bundleByPackage();
  const byPackage = heapByPackage(
    [...new Set([...bundle.eager, ...bundle.lazy].map(([p]) => p))].filter((p) => !p.startsWith("(")),
  ).slice(0, 15);
  lines.push(
    "",
    `What the idle server's heap holds (PGlite, demo site; a heap snapshot, ${heap.totalMb.toFixed(1)} MB of objects): ${heap.kinds.map(([k, v]) => `${k} ${v.toFixed(1)} MB`).join(", ")}. The largest script sources: ${heap.scripts
      .slice(0, 4)
      .map(([k, v]) => `\`${k.replace(/`/g, "'")}…\` ${v.toFixed(1)} MB`)
      .join("; ")}.`,
    "",
    `Loaded at start (the bundle and its static chunks), by package: ${bundle.eager
      .slice(0, 12)
      .map(([k, v]) => `${k} ${kb(v)}`)
      .join(", ")}. Loaded on first use only: ${bundle.lazy
      .slice(0, 10)
      .map(([k, v]) => `${k} ${kb(v)}`)
      .join(
        ", ",
      )}; and sharp (libvips, a native library) with the first image. PGlite stays outside the bundle (it loads its WebAssembly and data files from its package).`,
    "",
    `The heap by dependency — what each package adds to a fresh Node's used heap when imported whole and alone (MB; the 15 largest; the bundle keeps only the parts used, so lucide-react, for one, weighs less there): ${byPackage
      .map(
        ([p, mb]) =>
          `${p} ${mb.toFixed(1)}${bundle.lazy.some(([l]) => l === p) && !bundle.eager.some(([e]) => e === p) ? " (first use only)" : ""}`,
      )
      .join(", ")}.`,
  );
  lines.push(
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} by \`${process.env.BENCH_POSTGRES_URL ? "BENCH_POSTGRES_URL=… " : ""}npm run bench:memory\`.`,
  );
  return lines.join("\n");
}

async function main() {
  ensureWrk();
  buildServer();
  const runs = [await measure("PGlite", {})];
  const pgBase = process.env.BENCH_POSTGRES_URL;
  if (pgBase) {
    const fresh = await freshPostgres(pgBase);
    try {
      runs.push(await measure("PostgreSQL", { DATABASE_URL: fresh.url }));
    } finally {
      await fresh.drop();
    }
  }
  console.log("heap snapshot of the idle server…");
  const heap = await heapSnapshot();
  const section = report(runs, heap);
  writeSection("Memory and start-up", section);
  console.log(section);
}

await main();
