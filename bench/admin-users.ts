// npm run bench:admin — the back office's accounts list with 100,000 accounts (each with a
// website and a subscription): what one page of results costs through the admin service (the
// page and its total, as the Users tab asks), as a multiple of a plain indexed select of 25
// accounts measured in the same run on the same engine. In process, no HTTP. Set
// BENCH_POSTGRES_URL to include PostgreSQL.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase } from "../src/db/client.ts";
import { usersPage } from "../src/server/modules/admin/admin.service.ts";
import { type UsersQuery, usersQuerySchema } from "../src/shared/schemas/admin.ts";

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100_000);
const RUNS = Number(process.env.BENCH_ADMIN_RUNS ?? 50);

type Row = { engine: string; name: string; ms: number; ratio: number };

async function measure(engine: string, databaseUrl: string): Promise<{ rows: Row[]; seedS: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-bench-admin-"));
  const database = await openDatabase({ dataDir, databaseUrl });
  try {
    await database.migrate();
    const db = database.db;
    const t0 = performance.now();
    // Set-based seeding: one statement per table.
    await db.execute(sql`
      insert into "user" (id, name, email, email_verified, created_at, updated_at)
      select 'bu-' || g, 'Author ' || g, 'author' || g || '@bench.invalid', true,
             now() - (g || ' minutes')::interval, now()
      from generate_series(1, ${ACCOUNTS}) g`);
    await db.execute(sql`
      insert into websites (user_id, subdomain, website_name)
      select 'bu-' || g, 'site' || g, 'Site ' || g from generate_series(1, ${ACCOUNTS}) g`);
    await db.execute(sql`
      insert into subscriptions (user_id, tier, status, currency)
      select 'bu-' || g, (array['mini','midi','maxi','mega'])[1 + g % 4],
             (array['trial','active','past_due','cancelled','expired'])[1 + g % 5], 'GBP'
      from generate_series(1, ${ACCOUNTS}) g`);
    await db.execute(sql`analyze`);
    const seedS = (performance.now() - t0) / 1000;

    const time = async (f: () => Promise<unknown>) => {
      for (let i = 0; i < Math.max(3, RUNS / 10); i++) await f();
      const start = performance.now();
      for (let i = 0; i < RUNS; i++) await f();
      return (performance.now() - start) / RUNS;
    };
    const page = (q: Record<string, unknown>): UsersQuery => usersQuerySchema.parse(q);
    const env = { appOrigin: "http://localhost:3000", sitesDomain: "localhost:3000" };
    // Real answers, not fast misses.
    const first = await usersPage(db, page({}), env);
    if (first.total !== ACCOUNTS || first.users.length !== 25) throw new Error("seed failed");
    const found = await usersPage(db, page({ q: "author4242@" }), env);
    if (found.total !== 1) throw new Error(`search found ${found.total}`);

    const base = await time(() =>
      db.execute(sql`select id, name, email from "user" order by created_at desc, id desc limit 25`),
    );
    const rows: Row[] = [{ engine, name: "plain indexed select of 25 (baseline)", ms: base, ratio: 1 }];
    for (const [name, q] of [
      ["page 1, newest first (list + total)", {}],
      ["page 2, sorted by name", { sort: "name", order: "asc", page: 2 }],
      ["filter: active on Midi", { status: "active", tier: "midi" }],
      ["search by email (one match)", { q: "author4242@" }],
      ["search by subdomain fragment", { q: "site9999" }],
      ["page 400 (offset 9,975)", { page: 400 }],
    ] as const) {
      const ms = await time(() => usersPage(db, page(q), env));
      rows.push({ engine, name, ms, ratio: ms / base });
    }
    for (const r of rows)
      console.log(`${engine.padEnd(10)} ${r.name.padEnd(40)} ${r.ms.toFixed(2)} ms  ${r.ratio.toFixed(1)}×`);
    return { rows, seedS };
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function freshPostgres(base: string) {
  const name = `bookplate_bench_admin_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

const results = [await measure("PGlite", "")];
const pgBase = process.env.BENCH_POSTGRES_URL;
if (pgBase) {
  const fresh = await freshPostgres(pgBase);
  try {
    results.push(await measure("PostgreSQL", fresh.url));
  } finally {
    await fresh.drop();
  }
}

const title = "## Back office accounts list";
const section = [
  `${title} (\`npm run bench:admin\`)`,
  "",
  `${ACCOUNTS.toLocaleString("en-GB")} accounts, each with a website and a subscription (seeded in ${results.map((r) => `${r.seedS.toFixed(1)} s`).join(" / ")}). Each request is the admin service's \`usersPage\` — the page of 25 and the total, as the Users tab asks — run ${RUNS} times after a warm-up, in the benchmark's process. Baseline: a plain indexed select of 25 accounts (\`order by created_at desc, id desc limit 25\`) on the same engine in the same run.`,
  "",
  "| engine | request | ms | × baseline |",
  "| --- | --- | ---: | ---: |",
  ...results.flatMap((r) =>
    r.rows.map((row) => `| ${row.engine} | ${row.name} | ${row.ms.toFixed(2)} | ${row.ratio.toFixed(1)}× |`),
  ),
  "",
  "The total is a `count(*)`: without filters it counts the accounts table alone; a search or filter counts through the joins, and a search (`ilike` on name, email and subdomain) reads every row, as does a deep offset. These are the rows to watch as the number of accounts grows.",
  "",
  `Measured ${new Date().toISOString().slice(0, 10)} by \`${pgBase ? "BENCH_POSTGRES_URL=… " : ""}npm run bench:admin\`.`,
  "",
].join("\n");

const file = join(import.meta.dirname, "RESULTS.md");
const parts = readFileSync(file, "utf8").split(/^(?=## )/m);
const at = parts.findIndex((p) => p.startsWith(title));
if (at >= 0) parts[at] = `${section}\n`;
else parts.push(`${section}\n`);
writeFileSync(file, parts.join(""));
