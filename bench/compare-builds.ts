// Two builds of the server, answer for answer: a change meant to leave every public page as it was
// (a faster render, ADR 077 and 080) is checked here, byte for byte, headers included.
//   npm exec tsx bench/compare-builds.ts <other build's server/main.js> [this build's, default dist/server/main.js]
// Keep the other build with `cp -r dist /somewhere/inside/this/checkout` before changing the code
// (its main.js finds node_modules from there), then `node scripts/build-if-stale.mjs`.
// Each build runs in turn on the same port (the ETag covers the page's own address) on a copy of
// the same data: three seeded sites and the demo. Asked: the usual paths of every page kind, and
// every page linked from each site's home, books, blog, about and first book page; each plainly,
// with brotli or gzip accepted, and with the consent cookie. Exits 1 on any difference.
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { buildServer, freePort, get, stop } from "./lib.ts";
import { seed } from "./sites/seed.ts";

const [other, mine = "dist/server/main.js"] = process.argv.slice(2);
if (!other) throw new Error("usage: compare-builds.ts <other build's server/main.js> [this build's]");
const databaseUrl = process.env.COMPARE_DATABASE_URL ?? "";
const seedDir = process.env.COMPARE_DATA ?? "/tmp/bookplate-compare-builds";
const SITES = ["site0000", "site0001", "demo"];
const PATHS = ["/", "/books", "/book/book-1", "/blog", "/about", "/contact", "/series/series", "/privacy"];
const MISSING = ["/nope", "/book/nope", "/blog/nope", "/rss.xml", "/sitemap.xml", "/robots.txt", "/newsletter"];
const ASKS: Record<string, string>[] = [
  {},
  { "accept-encoding": "gzip, br" },
  { "accept-encoding": "gzip" },
  { cookie: "cookie_consent=accepted" },
];

async function start(main: string, dataDir: string, port: number, extra: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      SEED_DEMO: "false",
      PAGE_CACHE: "false",
      ...extra,
      PORT: String(port),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (let i = 0; i < 1200; i++) {
    await new Promise((ok) => setTimeout(ok, 50));
    try {
      if ((await get(port, `localhost:${port}`, "/healthz")).status === 200) return child;
    } catch {
      /* not up yet */
    }
  }
  await stop(child);
  throw new Error(`${main} did not start`);
}

/** Every answer of one build, by site, path and request headers: status, headers but Date, body. */
async function answersOf(main: string, port: number): Promise<Map<string, string>> {
  const dataDir = `${seedDir}-run`;
  rmSync(dataDir, { recursive: true, force: true });
  cpSync(seedDir, dataDir, { recursive: true });
  const child = await start(main, dataDir, port);
  const out = new Map<string, string>();
  try {
    for (const site of SITES) {
      const host = `${site}.localhost:${port}`;
      const paths = new Set([...PATHS, ...MISSING]);
      for (const p of PATHS.slice(0, 5)) {
        const page = await get(port, host, p);
        for (const m of page.body.toString().matchAll(/href="(\/[^"#?]*)"/g)) {
          const link = m[1] ?? "";
          if (!link.startsWith("/_") && !link.startsWith("/uploads")) paths.add(link);
        }
      }
      for (const p of [...paths].sort())
        for (const headers of ASKS) {
          const a = await get(port, host, p, { headers });
          const kept = Object.entries(a.headers).filter(([k]) => k !== "date");
          out.set(
            `${site} ${p} ${JSON.stringify(headers)}`,
            `${a.status}\n${JSON.stringify(kept)}\n${a.body.toString("base64")}`,
          );
        }
    }
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

buildServer();
if (!existsSync(`${seedDir}/seeded`)) {
  rmSync(seedDir, { recursive: true, force: true });
  mkdirSync(seedDir, { recursive: true });
  await seed(seedDir, databaseUrl, 3);
  // The demo (covers, reviews, posts) is made by the server on its first start.
  await stop(await start(other, seedDir, await freePort(), { SEED_DEMO: "true" }));
  mkdirSync(`${seedDir}/seeded`);
}
const port = await freePort();
const before = await answersOf(other, port);
const after = await answersOf(mine, port);
let differ = 0;
for (const [key, a] of before) {
  const b = after.get(key) ?? "(no answer)";
  if (a === b) continue;
  differ++;
  const [sa, ha, ba] = a.split("\n");
  const [sb, hb, bb] = b.split("\n");
  const ta = Buffer.from(ba ?? "", "base64").toString("latin1");
  const tb = Buffer.from(bb ?? "", "base64").toString("latin1");
  let i = 0;
  while (i < ta.length && ta[i] === tb[i]) i++;
  console.log(`DIFFERS ${key}: status ${sa} → ${sb}, headers ${ha === hb ? "same" : `${ha} → ${hb}`}`);
  console.log(`  before: ${JSON.stringify(ta.slice(Math.max(0, i - 120), i + 120))}`);
  console.log(`  after:  ${JSON.stringify(tb.slice(Math.max(0, i - 120), i + 120))}`);
}
const html = [...before.values()].filter((v) => v.includes("text/html")).length;
console.log(JSON.stringify({ answers: before.size, html, differ, onlyAfter: after.size - before.size }));
process.exit(differ ? 1 : 0);
