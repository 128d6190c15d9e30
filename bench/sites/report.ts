// bench:sites's section of bench/RESULTS.md: one row per comparison, with every slice.
import { CONNECTIONS, DURATION, type Measured, PIECE, ROUNDS } from "./compare.ts";

export const TABLE_HEAD = [
  "| what | database | req/s (median) | ratio to bare (median) | every slice: ratio (req/s ÷ bare req/s) | p99 ms, every slice | errors + non-2xx | load, every slice | CPU µs per request, every slice (server ÷ bare) | goal |",
  "|---|---|---:|---:|---|---|---:|---|---|---|",
];

const n = (x: number) => Math.round(x).toLocaleString("en-GB");
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** A goal: a verdict on a measured row (a ratio in every slice, a median, a p99). */
export type Goal = { text: string; met: (m: Measured) => boolean };

export const ratioEverySlice = (min: number): Goal => ({
  text: `≥ ${min} in every slice`,
  met: (m) => m.slices.every((s) => s.ratio >= min),
});
export const ratioAndP99 = (min: number, p99: number): Goal => ({
  text: `≥ ${min}, p99 < ${p99} ms`,
  met: (m) => m.ratio >= min && m.p99 < p99,
});
export const ratioAtLeast = (min: number): Goal => ({ text: `≥ ${min}`, met: (m) => m.ratio >= min });
/** At least `share` of another row's rate (the uncached page's), with a p99 bound. */
export const rateOf = (other: Measured, share: number, what: string, p99: number): Goal => ({
  text: `≥ ${share === 1 ? "" : `${share} × `}${what} (${n(other.rps * share)}/s), p99 < ${p99} ms`,
  met: (m) => m.rps >= other.rps * share && m.p99 < p99,
});

export function row(what: string, database: string, m: Measured | undefined, goal?: Goal): string {
  if (!m) return `| ${what} | ${database} | — | — | skipped | | | | | |`;
  const slices = m.slices.map((s) => `${s.ratio.toFixed(2)} (${n(s.run.rps)} ÷ ${n(s.base.rps)})`).join("; ");
  const p99s = m.slices.map((s) => ms(s.run.p99)).join(", ");
  const loads = m.slices.map((s) => s.load).join(", ");
  const cpu = m.slices.every((s) => s.cpu)
    ? m.slices.map((s) => `${s.cpu?.run.toFixed(1)} ÷ ${s.cpu?.base.toFixed(1)}`).join("; ")
    : "";
  const verdict = goal ? `${goal.text}: ${goal.met(m) ? "met" : "**not met**"}` : "";
  return `| ${what} | ${database} | ${n(m.rps)} | ${m.ratio.toFixed(3)} | ${slices} | ${p99s} | ${m.failures} | ${loads} | ${cpu} | ${verdict} |`;
}

export function intro(o: { sites: number; books: number; pageBytes: number; loadBefore: string; command: string }) {
  return [
    "## Public author sites and the dashboard (`npm run bench:sites`)",
    "",
    `${o.sites} sites × ${o.books} books, seeded into PGlite and (with \`BENCH_POSTGRES_URL\`) PostgreSQL on this machine; the production server as \`npm start\` runs it, one process; \`wrk\` with one thread and ${CONNECTIONS} connections on the same shared 2-core machine. Baseline: a bare Node \`http\` server in its own process sending the identical ${o.pageBytes}-byte cached book page. Every row is ${ROUNDS} slices of ${DURATION} s of load, each with ${DURATION} s of the baseline: a steady-state row and its baseline take turns in pieces of ${PIECE} s through the slice (baseline, row, baseline, row…), a cold row (a fresh server per slice) runs its whole slice right after a whole baseline slice. A ratio is the slice's rate over its baseline's, and every slice is shown; a slice's p99 is the highest of its pieces' p99s (an upper bound). CPU per request: the server process's user and system time (\`/proc/<pid>/stat\`) over the requests it answered in the slice, and the bare server's over its own (the database's processes are not counted on PostgreSQL). Load: the 1-minute load average (\`/proc/loadavg\`) at the end of each slice; the machine is shared, so absolute rates move with it and the same-slice ratios are the figures to read. The first row measures that noise: a second bare server, the same code and the same bytes, against the first.`,
    "",
    "- nginx: the same bytes as a static file (Debian `nginx-light`, one worker, `sendfile`, its own configuration in a temporary folder).",
    `- First round: each slice is a fresh server process (page cache and site contexts empty), asked for the hosts' home pages in turn for the whole ${DURATION} s slice (\`bench/wrk/hosts.lua\`): the first ask of each host renders its page, later asks find it cached (the issue's measure, the goal's row). Each asked once: the same, stopping once every host has answered once (\`BENCH_ONCE=1\`), so every request is a render; the rate and p99 are over that pass.`,
    "- Warm: every host's home page cached first, then the hosts asked in turn.",
    "- Steady state: the cached, warm, marketing and uncached rows are measured after one untimed slice of the same load (and one of the baseline), so a just-started process's compiling and start-up garbage is not counted; the first-round rows count it on purpose.",
    "- Uncached: `PAGE_CACHE=false` (rendered every time, the site's context kept); nothing kept: `SITE_CONTEXT_CACHE=false` too.",
    "- Dashboard: an author signed up, verified and onboarded through the real flow, with 10 books made through the API; `bench/wrk/api-books.lua` asks `GET /api/books` with the session cookie, `bench/wrk/create-post.lua` sends `POST /api/posts` JSON bodies with unique titles, or all with the same title (each needs the next free address).",
    "",
    `Load average before the run (1, 5, 15 min): ${o.loadBefore}.`,
    "",
    ...TABLE_HEAD,
  ];
}

export function outro(o: { loadAfter: string; command: string; notes: string[] }) {
  return [
    "",
    ...o.notes,
    `Load average after the run: ${o.loadAfter}. Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC by \`${o.command}\`.`,
    "",
  ];
}

/** The command as run: the bench's own environment settings (a database URL shown as …), then the script. */
export function commandLine(): string {
  const vars = Object.entries(process.env)
    .filter(([k]) => k.startsWith("BENCH_"))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => (k.endsWith("_URL") ? `${k}=…` : `${k}=${v}`));
  return [...vars, "npm run bench:sites"].join(" ");
}
