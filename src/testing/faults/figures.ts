// What the fault suite measured, printed after the run and (outside CI) written to
// bench/RESULTS.md: one row per fault and per abuse case, and what was skipped or failed.
import { writeSection } from "../bench-results.ts";
import { HEADERS_TIMEOUT_S, REQUEST_TIMEOUT_S } from "./fixture.ts";
import { mb } from "./server-process.ts";

export type FaultRow = {
  engine: string;
  fault: string;
  attempted: number;
  acknowledged: number;
  lost: number;
  refused: number;
  recoveryMs: number;
  peakRss: number;
};
export type AbuseRow = {
  case: string;
  requests: number;
  refused: number;
  answers: string;
  slowestMs: number;
  rssGrowth: number;
};
export const faultRows: FaultRow[] = [];
export const abuseRows: AbuseRow[] = [];
export const skipped: string[] = [];
/** Abuse cases that went wrong, named in the report next to their figures. */
export const failedCases: string[] = [];

/** Prints the figures, and (outside CI, after a fault ran) writes them to bench/RESULTS.md. */
export function report() {
  const lines: string[] = [];
  const faultTable = [
    "| engine | fault | writes tried | acknowledged | lost | refused / unanswered | slowest recovery | peak RSS |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...faultRows.map(
      (r) =>
        `| ${r.engine} | ${r.fault} | ${r.attempted} | ${r.acknowledged} | ${r.lost} | ${r.refused} | ${(r.recoveryMs / 1000).toFixed(1)} s | ${mb(r.peakRss)} MB |`,
    ),
  ];
  const abuseTable = [
    "| case | requests | cut off / refused in time | answers | slowest | RSS growth |",
    "| --- | --- | --- | --- | --- | --- |",
    ...abuseRows.map(
      (r) =>
        `| ${r.case} | ${r.requests} | ${r.refused} | ${r.answers} | ${(r.slowestMs / 1000).toFixed(1)} s | ${mb(r.rssGrowth)} MB |`,
    ),
  ];
  lines.push(...faultTable, "", ...abuseTable);
  if (skipped.length) lines.push("", ...skipped.map((s) => `Skipped: ${s}`));
  console.log(`\nFault suite figures\n\n${lines.join("\n")}\n`);
  if (process.env.CI || !faultRows.length) return;
  const section = [
    "## Fault suite",
    "",
    "`npm run test:faults` (ADR 016): posts created through the API in a loop (3–4 writers) while the server is " +
      "SIGKILLed and restarted, while PostgreSQL terminates every connection of the database, and while a " +
      "private PostgreSQL cluster is stopped the hard way (`pg_ctl stop -m immediate`) and started again. " +
      "“Lost” counts writes the API answered 201 for and that are missing afterwards; “refused / unanswered” " +
      "counts requests that got an error or no answer while the fault lasted (none of them were acknowledged). " +
      "“Slowest recovery” is the longest wait for the next acknowledged write after a fault.",
    "",
    ...faultTable,
    "",
    `Oversized and slow requests against the embedded-database server (headers timeout ${HEADERS_TIMEOUT_S} s, ` +
      `request timeout ${REQUEST_TIMEOUT_S} s for the run; RSS growth is the peak over the server's resident ` +
      "memory before the case).",
    "",
    ...abuseTable,
    "",
    ...(failedCases.length ? [...failedCases.map((s) => `Failed: ${s}.`), ""] : []),
    ...(skipped.length ? [...skipped.map((s) => `Skipped: ${s}`), ""] : []),
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run test:faults\` on this 2-core machine.`,
    "",
  ].join("\n");
  writeSection("Fault suite", section);
}
