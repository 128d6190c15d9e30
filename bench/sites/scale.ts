// The scale run of bench:sites (BENCH_SCALE_SITES sites; 0, the default, skips it): that many
// sites seeded into a database of their own (timed), every home page cached in a budget that
// holds them all (memory before and after, from /proc and /metrics), loaded over all hosts, then
// again with the default page cache budget, which is smaller than that working set.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { get, type Memory, memoryOf, startServer, stop } from "../lib.ts";
import { BOOKS, type Measured } from "./compare.ts";
import { row, TABLE_HEAD } from "./report.ts";
import { seed } from "./seed.ts";

export const SCALE_SITES = Number(process.env.BENCH_SCALE_SITES ?? 0);

export type ScaleRun = {
  seedSeconds: number;
  warmSeconds: number;
  idle: Memory;
  warm: Memory;
  all: Measured;
  loaded: Memory;
  bounded: Measured;
  boundedMemory: Memory;
};

/** Asks every host's home page once, a few at a time (fills the page cache; returns the seconds it took). */
export async function warmHomePages(port: number, sites: number) {
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

export async function scaleRun(port: number, hostsRun: (sites: number) => Promise<Measured>): Promise<ScaleRun> {
  const scaleDir = mkdtempSync(join(tmpdir(), "bookplate-bench-scale-"));
  try {
    console.log(`seeding ${SCALE_SITES} sites × ${BOOKS} books…`);
    const seeding = performance.now();
    await seed(scaleDir, "", SCALE_SITES);
    const seedSeconds = (performance.now() - seeding) / 1000;
    let server = (await startServer(scaleDir, port, { PAGE_CACHE_MB: "4096" })).child;
    // Settled first: start-up's garbage is freed in the first seconds (bench:memory waits too).
    await sleep(10_000);
    const idle = await memoryOf(server, port);
    const warmSeconds = await warmHomePages(port, SCALE_SITES);
    const warm = await memoryOf(server, port);
    console.log(`home pages of ${SCALE_SITES} hosts, all cached…`);
    const all = await hostsRun(SCALE_SITES);
    const loaded = await memoryOf(server, port);
    await stop(server);
    server = (await startServer(scaleDir, port, {})).child;
    console.log(`home pages of ${SCALE_SITES} hosts, default page cache budget…`);
    const bounded = await hostsRun(SCALE_SITES);
    const boundedMemory = await memoryOf(server, port);
    await stop(server);
    return { seedSeconds, warmSeconds, idle, warm, all, loaded, bounded, boundedMemory };
  } finally {
    rmSync(scaleDir, { recursive: true, force: true });
  }
}

export function scaleReport(r: ScaleRun): string[] {
  const mb = (x: number) => `${Math.round(x)} MB`;
  const mem = (m: Memory) => `${mb(m.rssMb)} resident, ${m.pages} pages cached (${mb(m.cacheMb)} counted)`;
  return [
    `### ${SCALE_SITES} sites × ${BOOKS} books`,
    "",
    `Seeded into a fresh embedded database in ${r.seedSeconds.toFixed(0)} s. The server, started with a page cache budget that holds every home page (\`PAGE_CACHE_MB=4096\`): ${mem(r.idle)} after start; every host's home page asked once (rendered and cached, ${r.warmSeconds.toFixed(0)} s, 8 at a time): ${mem(r.warm)}; after the load below: ${mem(r.loaded)}.`,
    "",
    ...TABLE_HEAD,
    row(`home pages over all ${SCALE_SITES} hosts, every one cached`, "PGlite", r.all),
    row(
      `home pages over all ${SCALE_SITES} hosts, default budget (64 MB, smaller than the working set)`,
      "PGlite",
      r.bounded,
    ),
    "",
    r.boundedMemory.pages < SCALE_SITES
      ? `With the default budget the cache held ${r.boundedMemory.pages} of the ${SCALE_SITES} home pages after the run (${mem(r.boundedMemory)}): with the hosts asked in turn and the least recently used page evicted first, a page is gone before its host comes round again, so nearly every request renders on the embedded database and the run follows the uncached figure. A budget that holds the working set (\`PAGE_CACHE_MB\`) buys the cached figure back with memory.`
      : `The default budget held all ${SCALE_SITES} home pages (${mem(r.boundedMemory)} after the run).`,
    "",
  ];
}
