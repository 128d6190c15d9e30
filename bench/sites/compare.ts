// How bench:sites measures on a shared, noisy machine: every run is ROUNDS slices, each right
// after a slice of the baseline, and every slice is kept (rps, p99, ratio) with the machine's
// load average at its end.
import { join } from "node:path";
import { loadAverage, median, type Result, wrk } from "../lib.ts";

/** Seconds per slice; every comparison is ROUNDS slices, alternating with slices of the baseline. */
export const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const CONNECTIONS = 32;
/** Books of each seeded site, and of the dashboard's author. */
export const BOOKS = 10;

export const script = (name: string) => join(import.meta.dirname, "..", "wrk", name);

export type Slice = { base: Result; run: Result; ratio: number; load: string };

/** A comparison: every slice, and the medians a table row shows. */
export type Measured = {
  slices: Slice[];
  rps: number;
  p99: number;
  ratio: number;
  failures: number;
  baseRps: number;
};

/** One slice of load: wrk with CONNECTIONS connections for DURATION seconds. */
export const load = (opts: {
  url: string;
  headers?: Record<string, string>;
  scriptFile?: string;
  env?: Record<string, string>;
}) => wrk({ ...opts, seconds: DURATION, connections: CONNECTIONS });

export function summarise(slices: Slice[]): Measured {
  return {
    slices,
    rps: median(slices.map((s) => s.run.rps)),
    p99: median(slices.map((s) => s.run.p99)),
    ratio: median(slices.map((s) => s.ratio)),
    failures: slices.reduce((n, s) => n + s.run.errors + s.run.non2xx, 0),
    baseRps: median(slices.map((s) => s.base.rps)),
  };
}

/**
 * ROUNDS rounds of: a baseline slice, then `prepare` (untimed: a fresh server for a cold run),
 * then a slice of `run`; each ratio is the run's rate over the baseline slice just before it.
 * `warmUp`: one untimed slice of `run` first, so a row about a server in its steady state does
 * not count the just-started process's compiling and start-up garbage (30–99 µs a request in the
 * first slice, ADR 064); the bare baseline is warmed the same way.
 */
export async function against(
  baseUrl: string,
  run: () => Promise<Result>,
  prepare?: () => Promise<void>,
  warmUp = false,
): Promise<Measured> {
  const slices: Slice[] = [];
  if (warmUp) {
    await load({ url: baseUrl });
    await run();
  }
  for (let r = 0; r < ROUNDS; r++) {
    const base = await load({ url: baseUrl });
    await prepare?.();
    const res = await run();
    slices.push({ base, run: res, ratio: res.rps / base.rps, load: loadAverage().split(" ")[0] ?? "" });
  }
  return summarise(slices);
}
