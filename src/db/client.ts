// One database handle for the whole process: PGlite in DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set. Both are driven through the same Drizzle pg-core API.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { withNamedStatements } from "./pglite-statements.ts";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** What a transaction callback receives; use it, never the outer `db`, inside the callback. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Run the committed SQL migrations. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** Subscribe to NOTIFY on a channel (all processes on the same database hear it). */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

const migrationsFolder = new URL("./migrations", import.meta.url).pathname;

export class DataDirLockedError extends Error {}

/**
 * PGlite allows one process per data directory: a second one would corrupt it. The lock is a
 * file holding the owner's pid, created exclusively; a lock whose process is gone is stale.
 */
function takeLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, "bookplate.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number(readFileSync(lockPath, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
        throw new DataDirLockedError(
          `Another Bookplate process (pid ${pid}) is already using the data directory ${dataDir}. ` +
            "Only one process may use an embedded database at a time: stop that process, " +
            "set DATA_DIR to another directory, or set DATABASE_URL to use PostgreSQL.",
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export type OpenOptions = {
  databaseUrl?: string | undefined;
  /** Directory for the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /**
   * Told when PostgreSQL drops a connection the pool is not using (a server restart, an admin
   * terminating it). Without a listener such an error would crash the process; the pool
   * replaces the connection on its next use.
   */
  onConnectionError?: (err: Error) => void;
};

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.onConnectionError ?? (() => {}));
  return openPglite(opts.dataDir);
}

async function openPglite(dataDir: string): Promise<Database> {
  const inMemory = dataDir === "memory://";
  const release = inMemory ? () => {} : takeLock(dataDir);
  let client: PGlite;
  try {
    const defaults = (PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams;
    // Measured: the default buffers make a cold start slow and memory-hungry.
    const options = { startParams: [...defaults, "-c", "shared_buffers=16MB"] };
    client = await PGlite.create(inMemory ? undefined : join(dataDir, "pg"), options);
  } catch (err) {
    release();
    throw err;
  }
  const named = withNamedStatements(client);
  const db = drizzlePglite(named, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    migrate: async () => {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    },
    ping: async () => {
      await client.query("select 1");
    },
    listen: async (channel, onPayload) => named.listen(channel, onPayload),
    close: async () => {
      try {
        await client.query("CHECKPOINT");
      } finally {
        await client.close();
        release();
      }
    },
  };
}

async function openPostgres(url: string, onConnectionError: (err: Error) => void): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on("error", onConnectionError);
  const listeners = new Set<pg.Client>();
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    migrate: async () => {
      await migratePg(drizzlePg(pool, { schema }), { migrationsFolder });
    },
    ping: async () => {
      await pool.query("select 1");
    },
    listen: async (channel, onPayload) => {
      // LISTEN needs a connection of its own that stays open, outside the pool.
      const client = new pg.Client({ connectionString: url });
      client.on("error", onConnectionError);
      await client.connect();
      client.on("notification", (n) => {
        if (n.channel === channel) onPayload(n.payload ?? "");
      });
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      listeners.add(client);
      return async () => {
        listeners.delete(client);
        await client.end();
      };
    },
    close: async () => {
      await Promise.all([...listeners].map((c) => c.end()));
      listeners.clear();
      await pool.end();
    },
  };
}
