// Profiles the production server while wrk drives public pages (a tool for finding where a
// render goes; `npm run bench:sites` gives the figures). Seeds BENCH_SITES sites into
// PROFILE_DATA (kept for the next run) and writes a .cpuprofile into PROFILE_OUT.
//   PROFILE_MODE=uncached  the book page of one site with PAGE_CACHE=false (default)
//   PROFILE_MODE=first     a fresh server, home pages of every host in turn for BENCH_SECONDS
//   PROFILE_MODE=once      a fresh server, every host's home page once
//   PROFILE_MODE=cached    the book page of one site from the page cache (after an untimed slice)
//   PROFILE_MODE=warm      every host's home page cached, then the hosts in turn (after an untimed slice)
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildServer, freePort, get, loadAverage, startServer, stop, wrk } from "./lib.ts";
import { script } from "./sites/compare.ts";
import { warmHomePages } from "./sites/scale.ts";
import { SITES, seed } from "./sites/seed.ts";

const dataDir = process.env.PROFILE_DATA ?? "/tmp/bookplate-profile-data";
const out = process.env.PROFILE_OUT ?? "/tmp/bookplate-profile";
const mode = process.env.PROFILE_MODE ?? "uncached";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const profile = process.env.PROFILE !== "0";
const databaseUrl = process.env.PROFILE_DATABASE_URL ?? "";

buildServer();
if (!existsSync(join(dataDir, "seeded"))) {
  mkdirSync(dataDir, { recursive: true });
  await seed(dataDir, databaseUrl);
  mkdirSync(join(dataDir, "seeded"));
}
mkdirSync(out, { recursive: true });
const port = await freePort();
const env: Record<string, string> = {
  ...(mode === "uncached" ? { PAGE_CACHE: "false" } : {}),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
};
const flags = profile ? ["--cpu-prof", `--cpu-prof-dir=${out}`, "--cpu-prof-interval=200"] : [];
const server = (await startServer(dataDir, port, env, flags)).child;
const host = `site0000.localhost:${port}`;
/** The server's CPU time so far (user + system), in ms, from /proc: a cost per request that the machine's other work moves far less than a rate. */
const cpuMs = () => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};
const bookPage = () =>
  wrk({
    url: `http://127.0.0.1:${port}/book/book-1`,
    headers: { Host: host, "User-Agent": "bench" },
    seconds,
    connections: 32,
  });
const hosts = (once: boolean) =>
  wrk({
    url: `http://127.0.0.1:${port}/`,
    scriptFile: script("hosts.lua"),
    env: { BENCH_SITES: String(SITES), BENCH_PORT: String(port), BENCH_ONCE: once ? "1" : "0" },
    seconds: once ? 300 : seconds,
    connections: 32,
  });
// The steady-state modes are measured after one untimed slice of the same load (as bench:sites does).
if (mode === "cached") await bookPage();
if (mode === "warm") {
  await warmHomePages(port, SITES);
  await hosts(false);
}
const cpuBefore = cpuMs();
const started = performance.now();
const res = mode === "uncached" || mode === "cached" ? await bookPage() : await hosts(mode === "once");
const cpu = cpuMs() - cpuBefore;
const requests = Math.round((res.rps * (performance.now() - started)) / 1000);
const check = await get(port, host, "/book/book-1");
await stop(server);
console.log(
  JSON.stringify({
    mode,
    ...res,
    requests,
    cpuMsPerRequest: Number((cpu / requests).toFixed(3)),
    status: check.status,
    load: loadAverage(),
  }),
);
if (profile) console.log(readdirSync(out).sort().at(-1));
