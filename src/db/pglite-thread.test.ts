// The embedded database on a thread of its own (ADR 088): what the app asks of PGlite works the
// same through the thread, and a statement no longer holds the server's event loop.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./client.ts";
import { UNWRAPPED } from "./pglite-statements.ts";
import { endThreadAbruptly } from "./pglite-thread.ts";

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "bookplate-thread-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function withDatabase(thread: "worker" | "main", fn: (d: Database) => Promise<void>, dataDir = "memory://") {
  const database = await openDatabase({ dataDir, thread });
  try {
    await fn(database);
  } finally {
    await database.close();
  }
}

/** How many times a 5 ms interval fires while `work` runs. */
async function ticksDuring(work: () => Promise<unknown>): Promise<number> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return ticks;
}

describe.skipIf(process.env.DATABASE_URL)("PGlite on its own thread", () => {
  it("answers rows, raises the database's own errors and keeps or rolls back transactions", async () => {
    await withDatabase("worker", async ({ db }) => {
      await db.execute(sql`create table t (x int primary key)`);
      await db.execute(sql`insert into t values (42)`);
      const err = await db.execute(sql`select nope from t`).catch((e: { cause?: { code?: string } }) => e);
      expect((err as { cause?: { code?: string } }).cause?.code).toBe("42703");
      await db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values (1)`);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.execute(sql`insert into t values (2)`);
          throw new Error("changed my mind");
        }),
      ).rejects.toThrow("changed my mind");
      // A statement that fails inside a transaction rolls it back whole, and the next one runs.
      await expect(
        db.transaction(async (tx) => {
          await tx.execute(sql`insert into t values (3)`);
          await tx.execute(sql`insert into t values (42)`);
        }),
      ).rejects.toThrow();
      const { rows } = (await db.execute(sql`select array_agg(x order by x)::text as xs from t`)) as unknown as {
        rows: { xs: string }[];
      };
      expect(rows[0]?.xs).toBe("{1,42}");
      // Arrays bind as PGlite binds them (its array types are read once the database is up).
      const ids = ["30b68a96-6d77-437f-a93f-358e88b7a99c", "00000000-0000-0000-0000-000000000001"];
      const unnested = (await db.execute(
        sql`select count(*)::int as n from unnest(${sql.param(ids)}::uuid[])`,
      )) as unknown as {
        rows: { n: number }[];
      };
      expect(unnested.rows[0]?.n).toBe(2);
    });
  });

  it("hands a notification sent by a statement to the channel's listener", async () => {
    await withDatabase("worker", async (database) => {
      const heard: string[] = [];
      await database.listen("site_changed", (payload) => heard.push(payload));
      await database.db.execute(sql`select pg_notify('site_changed', 'demo')`);
      await new Promise((r) => setTimeout(r, 20));
      expect(heard).toEqual(["demo"]);
    });
  });

  it("takes a snapshot a new data directory can be filled from", async () => {
    const first = freshDir();
    let snapshot: Blob | undefined;
    await withDatabase(
      "worker",
      async (database) => {
        await database.db.execute(sql`create table kept (note text)`);
        await database.db.execute(sql`insert into kept values ('still here')`);
        snapshot = await database.snapshot?.();
      },
      first,
    );
    expect(snapshot?.size).toBeGreaterThan(0);
    const second = freshDir();
    const restored = await openDatabase({ dataDir: second, loadDataDir: snapshot, thread: "worker" });
    try {
      const { rows } = (await restored.db.execute(sql`select note from kept`)) as unknown as {
        rows: { note: string }[];
      };
      expect(rows).toEqual([{ note: "still here" }]);
    } finally {
      await restored.close();
    }
  });

  it("leaves the event loop free while a statement runs, which the caller's own thread does not", async () => {
    const sleep = (d: Database) => d.db.execute(sql`select pg_sleep(0.3)`);
    let onWorker = 0;
    let onMain = 0;
    await withDatabase("worker", async (d) => {
      onWorker = await ticksDuring(() => sleep(d));
    });
    await withDatabase("main", async (d) => {
      onMain = await ticksDuring(() => sleep(d));
    });
    // 300 ms of a 5 ms interval: dozens of ticks when the loop is free, none when it is held.
    expect(onWorker).toBeGreaterThan(10);
    expect(onMain).toBeLessThanOrEqual(1);
  });

  it("fails a statement after close with a clear error instead of waiting forever", async () => {
    const database = await openDatabase({ dataDir: "memory://", thread: "worker" });
    await database.close();
    const err = await database.db.execute(sql`select 1`).catch((e: Error) => e);
    expect(String((err as Error & { cause?: Error }).cause?.message)).toMatch(/closed/);
  });

  it("tells its owner once when its thread stops by itself, and fails every statement after it", async () => {
    const lost: Error[] = [];
    const database = await openDatabase({ dataDir: "memory://", onEmbeddedDatabaseLost: (why) => lost.push(why) });
    await database.db.execute(sql`select 1`);
    expect(lost).toEqual([]);
    const client = (database.db as unknown as { $client: Record<symbol, PGlite> }).$client[UNWRAPPED] as PGlite;
    await endThreadAbruptly(client);
    await new Promise((r) => setTimeout(r, 50));
    expect(lost).toHaveLength(1);
    expect(String(lost[0]?.message)).toMatch(/thread exited/);
    const err = await database.db.execute(sql`select 1`).catch((e: Error) => e);
    expect(String((err as Error & { cause?: Error }).cause?.message)).toMatch(/thread exited/);
    // Its last checkpoint cannot run, and close says so.
    await expect(database.close()).rejects.toThrow(/thread exited/);
    expect(lost).toHaveLength(1);
  });

  it("says nothing of a thread that ends because the database was closed", async () => {
    const lost: Error[] = [];
    const database = await openDatabase({ dataDir: "memory://", onEmbeddedDatabaseLost: (why) => lost.push(why) });
    await database.db.execute(sql`select 1`);
    await database.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(lost).toEqual([]);
  });
});
