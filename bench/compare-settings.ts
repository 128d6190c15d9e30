// Two settings of the production server side by side (ADR 088, 089): two servers on copies of the
// same seeded data, one with SETTINGS_B's environment added, asked in turn in slices of wrk
// (-t1 -c32) on one page of site0000; per slice its rate and the server's CPU per request (both
// threads, /proc). Needs the data bench/profile-sites.ts seeds (PROFILE_DATA).
//   SETTINGS_B='{"PGLITE_THREAD":"main"}' SETTINGS_BOTH='{"PAGE_CACHE":"false"}' npx tsx bench/compare-settings.ts
//   SETTINGS_PATH=/book/book-1 (default)  SETTINGS_ROUNDS=4  SETTINGS_SECONDS=4
//   SETTINGS_B='{"MALLOC_MMAP_THRESHOLD_":null}': B without a variable npm start sets
//   On PostgreSQL: PROFILE_DATA and SETTINGS_BOTH's DATABASE_URL those of a profile-sites run.
import type { ChildProcess } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { buildServer, cpuMsOf, freePort, loadAverage, rssOf, startServer, stop, wrk } from "./lib.ts";

const data = process.env.PROFILE_DATA ?? "/tmp/bookplate-profile-data";
if (!existsSync(`${data}/seeded`)) throw new Error(`no seeded data in ${data}: run bench/profile-sites.ts once first`);
// null in SETTINGS_B leaves a variable out (npm start's own included: spawn skips undefined).
const settingsB = Object.fromEntries(
  Object.entries(JSON.parse(process.env.SETTINGS_B ?? "{}") as Record<string, string | null>).map(([k, v]) => [
    k,
    v ?? undefined,
  ]),
) as Record<string, string>;
const both = JSON.parse(process.env.SETTINGS_BOTH ?? "{}") as Record<string, string>;
const path = process.env.SETTINGS_PATH ?? "/book/book-1";
const rounds = Number(process.env.SETTINGS_ROUNDS ?? 4);
const seconds = Number(process.env.SETTINGS_SECONDS ?? 4);

buildServer();
type Server = { name: string; port: number; child: ChildProcess; slices: string[] };
const servers: Server[] = [];
for (const [name, env] of [
  ["A", {}],
  ["B", settingsB],
] as const) {
  const dir = `/tmp/bookplate-settings-${name}`;
  rmSync(dir, { recursive: true, force: true });
  cpSync(data, dir, { recursive: true });
  rmSync(`${dir}/bookplate.lock`, { force: true });
  const port = await freePort();
  const { child } = await startServer(dir, port, { ...both, ...env });
  servers.push({ name, port, child, slices: [] });
}
const slice = (s: Server, secs: number) =>
  wrk({
    url: `http://127.0.0.1:${s.port}${path}`,
    headers: { Host: `site0000.localhost:${s.port}`, "User-Agent": "bench" },
    seconds: secs,
    connections: 32,
  });
for (const s of servers) await slice(s, 3); // untimed: compiling and start-up garbage
for (let r = 0; r < rounds; r++) {
  for (const s of r % 2 ? [...servers].reverse() : servers) {
    const cpu = cpuMsOf(s.child.pid);
    const started = performance.now();
    const res = await slice(s, seconds);
    const requests = (res.rps * (performance.now() - started)) / 1000;
    const us = ((cpuMsOf(s.child.pid) - cpu) * 1000) / requests;
    s.slices.push(
      `${Math.round(res.rps)}/s ${us.toFixed(1)} µs p99 ${res.p99} ms${res.errors + res.non2xx ? " ERRORS" : ""}`,
    );
  }
}
console.log(`A: ${JSON.stringify(both)}  B: ${JSON.stringify({ ...both, ...settingsB })}  ${path}`);
for (const s of servers) console.log(`${s.name}: ${s.slices.join("; ")}; resident ${Math.round(rssOf(s.child))} MB`);
console.log(`load ${loadAverage()}`);
for (const s of servers) await stop(s.child);
