// npm run bench:queries — what the two reads behind an uncached book page cost on each database
// engine, in process (no HTTP), as multiples of the cheapest possible query (`select 1`) measured
// in the same run on the same engine. Explains the gap between the embedded database and
// PostgreSQL in the `bench:sites` "cache off" rows. Set BENCH_POSTGRES_URL to include PostgreSQL.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { and, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import pg from "pg";
import { type Db, openDatabase } from "../src/db/client.ts";
import { UNWRAPPED } from "../src/db/pglite-statements.ts";
import * as schema from "../src/db/schema/index.ts";
import { books, profiles, subscriptions, user, websites } from "../src/db/schema/index.ts";
import * as q from "../src/server/modules/sites/sites.queries.ts";

const SITES = 200;
const RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 2000);

type Row = { engine: string; name: string; ms: number; ratio: number };

async function measure(engine: string, databaseUrl: string): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-bench-q-"));
  const database = await openDatabase({ dataDir, databaseUrl });
  try {
    await database.migrate();
    const db = database.db;
    const ids = Array.from({ length: SITES }, (_, n) => `bq-${n}`);
    await db.insert(user).values(ids.map((id) => ({ id, name: id, email: `${id}@bench.invalid` })));
    await db
      .insert(profiles)
      .values(ids.map((id) => ({ id, name: id, email: `${id}@bench.invalid`, bio: "<p>Bio.</p>".repeat(20) })));
    await db.insert(websites).values(ids.map((id, n) => ({ userId: id, subdomain: `qsite${n}`, websiteName: id })));
    await db.insert(subscriptions).values(ids.map((id) => ({ userId: id, tier: "midi", status: "active" })));
    await db.insert(books).values(
      ids.flatMap((id) =>
        Array.from({ length: 10 }, (_, k) => ({
          userId: id,
          title: `B${k}`,
          slug: `b${k}`,
          author: id,
          sortOrder: k,
        })),
      ),
    );
    const [book] = await db
      .select({ id: books.id, slug: books.slug })
      .from(books)
      .where(and(eq(books.userId, "bq-7"), eq(books.sortOrder, 0)));
    if (!book) throw new Error("seed failed");
    // Time real answers, not fast misses.
    if (
      !(await q.selectContextBySubdomain(db, "qsite7")) ||
      !(await q.selectVisibleBook(db, "bq-7", book.slug, null, 50))
    )
      throw new Error("the reads found nothing to time");

    const time = async (f: () => Promise<unknown>) => {
      for (let i = 0; i < RUNS / 10; i++) await f();
      const t0 = performance.now();
      for (let i = 0; i < RUNS; i++) await f();
      return (performance.now() - t0) / RUNS;
    };
    const base = await time(() => db.execute(sql`select 1`));
    const client = (db as unknown as { session: { client: Record<symbol, unknown> } }).session.client;
    const raw = client[UNWRAPPED] as PGlite | undefined;
    const unnamed = raw ? (drizzle(raw, { schema }) as unknown as Db) : undefined;
    const rows: Row[] = [{ engine, name: "`select 1` (baseline)", ms: base, ratio: 1 }];
    for (const [name, f] of [
      ["site context (every page)", () => q.selectContextBySubdomain(db, "qsite7")],
      ["one book (book page)", () => q.selectVisibleBook(db, "bq-7", book.slug, null, 50)],
      ["visible books (books page)", () => q.selectVisibleBooks(db, "bq-7", 50)],
      // The same reads through PGlite's own query(), which plans each one afresh (ADR 013).
      ...(unnamed
        ? ([
            ["site context, PGlite's own query()", () => q.selectContextBySubdomain(unnamed, "qsite7")],
            ["one book, PGlite's own query()", () => q.selectVisibleBook(unnamed, "bq-7", book.slug, null, 50)],
          ] as const)
        : []),
    ] as const) {
      const ms = await time(f);
      rows.push({ engine, name, ms, ratio: ms / base });
    }
    for (const r of rows)
      console.log(`${engine.padEnd(10)} ${r.name.padEnd(36)} ${r.ms.toFixed(3)} ms  ${r.ratio.toFixed(1)}×`);
    return rows;
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function freshPostgres(base: string) {
  const name = `bookplate_benchq_${process.pid}`;
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

const rows = await measure("PGlite", "");
const pgBase = process.env.BENCH_POSTGRES_URL;
if (pgBase) {
  const fresh = await freshPostgres(pgBase);
  try {
    rows.push(...(await measure("PostgreSQL", fresh.url)));
  } finally {
    await fresh.drop();
  }
}

const section = [
  "## Reads behind an uncached page (`npm run bench:queries`)",
  "",
  `${SITES} sites × 10 books; each read run ${RUNS} times in a row in the benchmark's process through the app's own prepared statements, after ${RUNS / 10} warm-up runs. Baseline: \`select 1\` on the same engine in the same run. PostgreSQL runs on the same machine (a local socket, no network).`,
  "",
  "| engine | read | ms per read | × `select 1` |",
  "| --- | --- | ---: | ---: |",
  ...rows.map((r) => `| ${r.engine} | ${r.name} | ${r.ms.toFixed(3)} | ${r.ratio.toFixed(1)}× |`),
  "",
  "On PGlite the app runs each distinct SQL text as a named prepared statement, planned once and then run in one call into the WebAssembly module (ADR 013); the rows marked \"PGlite's own query()\" run the same reads the way PGlite does by itself, parsed and planned afresh in five calls, for comparison in the same run. PostgreSQL already keeps Drizzle's named statements through `pg`.",
  "",
  `Measured ${new Date().toISOString().slice(0, 10)} by \`${pgBase ? "BENCH_POSTGRES_URL=… " : ""}npm run bench:queries\`.`,
  "",
].join("\n");

const file = join(import.meta.dirname, "RESULTS.md");
const previous = readFileSync(file, "utf8");
const parts = previous.split(/^(?=## )/m);
const title = "## Reads behind an uncached page";
const at = parts.findIndex((p) => p.startsWith(title));
if (at >= 0) parts[at] = `${section}\n`;
else {
  // Right after the sites benchmark, which it explains.
  const sites = parts.findIndex((p) => p.startsWith("## Public author sites"));
  parts.splice(sites >= 0 ? sites + 1 : parts.length, 0, `${section}\n`);
}
writeFileSync(file, parts.join(""));
// The repository's formatter aligns Markdown tables; format now so lint stays green.
spawnSync("npx", ["biome", "format", "--write", file], { stdio: "ignore" });
console.log("\nWritten to bench/RESULTS.md (section 'Reads behind an uncached page').");
