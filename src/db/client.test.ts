import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./client.ts";

const baseUrl = process.env.DATABASE_URL;

// Only PostgreSQL has connections a server can drop; PGlite runs in the process.
describe.runIf(baseUrl)("PostgreSQL connection pool", () => {
  it("survives the server dropping its idle connections, and says so", async () => {
    const name = `bookplate_pool_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(baseUrl as string);
    url.pathname = `/${name}`;
    const lost: Error[] = [];
    const database = await openDatabase({
      databaseUrl: url.toString(),
      dataDir: "unused",
      onConnectionError: (err) => lost.push(err),
    });
    try {
      await database.ping();
      // What a PostgreSQL restart or `drop database … with (force)` does to idle connections.
      await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", [name]);
      await expect.poll(() => lost.length, { timeout: 5000 }).toBeGreaterThan(0);
      expect((lost[0] as Error & { code?: string }).code).toBe("57P01");
      // The pool replaces the dropped connection on its next use.
      await database.ping();
    } finally {
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
