// How bench:sites measures on a shared, noisy machine: every row is ROUNDS slices, each with as
// much of the baseline, taken in turns of PIECE seconds (a cold row: its whole slice right after
// a whole baseline slice), and every slice is kept (rps, p99, ratio, CPU per request) with the
// machine's load average at its end (ADR 083).
import { join } from "node:path";
import { cpuMsOf, loadAverage, median, type Result, wrk } from "../lib.ts";

/** Seconds per slice; every comparison is ROUNDS slices, each with as many seconds of the baseline. */
export const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const CONNECTIONS = 32;
/** Books of each seeded site, and of the dashboard's author. */
export const BOOKS = 10;

export const script = (name: string) => join(import.meta.dirname, "..", "wrk", name);

/**
 * Seconds per piece: a steady-state slice alternates with its baseline in pieces this long
 * (a 5 s slice is 5 pieces of 1 s of the baseline and 5 of the row, taken in turn), so a
 * minute-scale drift of the shared machine falls on both sides of the ratio alike.
 */
export const PIECE = Number(process.env.BENCH_PIECE_SECONDS ?? 1);

/**
 * A slice of the row and of the baseline (each `DURATION` seconds, in pieces), the ratio of their
 * rates, and where both processes are known, the CPU each spent per request (µs).
 */
export type Slice = {
  base: Result;
  run: Result;
  ratio: number;
  load: string;
  cpu?: { run: number; base: number };
};

/** A comparison: every slice, and the medians a table row shows. */
export type Measured = {
  slices: Slice[];
  rps: number;
  p99: number;
  ratio: number;
  failures: number;
  baseRps: number;
};

/** One slice of load: wrk with CONNECTIONS connections for `seconds` (DURATION). */
export const load = (
  opts: {
    url: string;
    headers?: Record<string, string>;
    scriptFile?: string;
    env?: Record<string, string>;
  },
  seconds = DURATION,
) => wrk({ ...opts, seconds, connections: CONNECTIONS });

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
 * Pieces of one slice as one result: the mean rate (the pieces last alike), every request and
 * error, and the highest of the pieces' p99s — an upper bound of the slice's own p99 (no more
 * than 1% of any piece's requests took longer, so no more than 1% of all of them did).
 */
export function joined(pieces: Result[]): Result {
  return {
    rps: pieces.reduce((n, p) => n + p.rps, 0) / pieces.length,
    p99: Math.max(...pieces.map((p) => p.p99)),
    errors: pieces.reduce((n, p) => n + p.errors, 0),
    non2xx: pieces.reduce((n, p) => n + p.non2xx, 0),
    requests: pieces.reduce((n, p) => n + p.requests, 0),
  };
}

/** The processes whose CPU a comparison reads (/proc): the baseline's, and the row's server's when it has one. */
export type Processes = { base: number | undefined; run: () => number | undefined };

/** Load from `go` while the process `pid` works: the result, and the CPU the process spent (ms). */
async function timed(go: () => Promise<Result>, pid: number | undefined) {
  const before = cpuMsOf(pid);
  const result = await go();
  return { result, cpuMs: cpuMsOf(pid) - before };
}

/**
 * ROUNDS slices of the row against the baseline; each ratio is the row's rate over the
 * baseline's in the same slice. A steady-state row (no `prepare`) takes both in turns of PIECE
 * seconds through the slice. `prepare`: a fresh server before each slice (a cold run): the row's
 * slice then runs whole, right after a whole baseline slice. `warmUp`: one untimed slice of the
 * row first, so a row about a server in its steady state does not count the just-started
 * process's compiling and start-up garbage (30–99 µs a request in the first slice, ADR 064); the
 * bare baseline is warmed the same way. `cpu`: the processes to read CPU per request of.
 */
export async function against(
  baseUrl: string,
  run: (seconds?: number) => Promise<Result>,
  opts: { prepare?: () => Promise<void>; warmUp?: boolean; cpu?: Processes } = {},
): Promise<Measured> {
  const slices: Slice[] = [];
  const base = (seconds?: number) => load({ url: baseUrl }, seconds);
  if (opts.warmUp) {
    await base();
    await run();
  }
  // wrk takes whole seconds.
  const seconds = opts.prepare ? DURATION : Math.max(1, Math.min(DURATION, Math.round(PIECE)));
  const pieces = Math.max(1, Math.floor(DURATION / seconds));
  for (let r = 0; r < ROUNDS; r++) {
    const bases: Result[] = [];
    const runs: Result[] = [];
    let baseCpu = 0;
    let runCpu = 0;
    for (let i = 0; i < pieces; i++) {
      const b = await timed(() => base(seconds), opts.cpu?.base);
      if (i === 0) await opts.prepare?.();
      const x = await timed(() => run(seconds), opts.cpu?.run());
      bases.push(b.result);
      runs.push(x.result);
      baseCpu += b.cpuMs;
      runCpu += x.cpuMs;
    }
    const b = joined(bases);
    const x = joined(runs);
    const cpu =
      opts.cpu?.base !== undefined && opts.cpu.run() !== undefined && !opts.prepare
        ? { base: (baseCpu * 1000) / b.requests, run: (runCpu * 1000) / x.requests }
        : undefined;
    slices.push({ base: b, run: x, ratio: x.rps / b.rps, load: loadAverage().split(" ")[0] ?? "", cpu });
  }
  return summarise(slices);
}
