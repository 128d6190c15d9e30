// One database handle for the whole process: PGlite in DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set. Both are driven through the same Drizzle pg-core API.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { takeLock } from "./data-dir-lock.ts";
import { listeningConnection } from "./listening-connection.ts";
import { lightenArrayResults } from "./pg-results.ts";
import { withNamedStatements } from "./pglite-statements.ts";
import { createThreadedPglite } from "./pglite-thread.ts";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** What a transaction callback receives; use it, never the outer `db`, inside the callback. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const embedded = new WeakSet<object>();

/**
 * Whether `db` is the embedded database: one session, one statement at a time, so a row lock
 * held through a commit keeps no other statement waiting (a statement may then do in one round
 * trip what PostgreSQL is better served doing in two; see insertPostAtNextSlug).
 */
export const runsOneStatementAtATime = (db: Db): boolean => embedded.has(db);

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /**
   * Whether a statement runs on the caller's thread and holds its event loop until it ends:
   * PGlite opened with `thread: "main"` (ADR 081 then makes requests take turns).
   */
  holdsEventLoop: boolean;
  /** Run the committed SQL migrations. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /**
   * PGlite only: the data directory as a tar, taken while no statement runs (after a CHECKPOINT),
   * so it is a consistent copy even while the server serves (ADR 046).
   */
  snapshot?: () => Promise<Blob>;
  /**
   * Subscribe to NOTIFY on a channel (all processes on the same database hear it). On
   * PostgreSQL one connection per process listens on every channel (`listening-connection.ts`);
   * dropped, it is re-established by itself; `onReconnect` is then
   * told, since notices sent meanwhile were missed (drop whatever they would have refreshed);
   * `onDown` is told as soon as it is lost, for what must not be used while notices can be missed.
   * `ownWritesAtOnce`: a notice this process's own statement sends is heard before that
   * statement's answer (or its transaction's), as PGlite's one session always hears it; other
   * processes hear it when it reaches them. On PostgreSQL the notice must be sent with the SQL
   * function `notify_own` (migration 0034) and its channel named in `hearOwnNotices`.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    opts?: { onReconnect?: () => void; onDown?: () => void; ownWritesAtOnce?: boolean },
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

const migrationsFolder = new URL("./migrations", import.meta.url).pathname;
/**
 * An empty database, as PGlite's initdb makes it with the migrations of the build applied, that
 * the build places beside the server bundle: a new data directory starts from a copy of it
 * instead of running initdb and every migration (ADR 064). Absent when running from the
 * sources; then PGlite runs initdb itself, and migrate() every migration.
 */
const templateFile = new URL("./pglite-template.tar.gz", import.meta.url).pathname;

/** What a new embedded data directory is filled from: the template, when there is no cluster yet. */
export function emptyCluster(pgDir: string, template = templateFile): Blob | undefined {
  if (existsSync(join(pgDir, "PG_VERSION")) || !existsSync(template)) return undefined;
  return new Blob([readFileSync(template)]);
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
  /** PGlite only: fill an empty data directory from a snapshot (a restore, ADR 046). */
  loadDataDir?: Blob;
  /**
   * PGlite only: run the database on a thread of its own (ADR 088; the default), or on the
   * caller's (PGLITE_THREAD=main).
   */
  thread?: "worker" | "main";
  /**
   * PGlite on its own thread only: told once if that thread stops by itself (a crash inside the
   * database). Every statement fails from then on; the process should end, so that whatever
   * supervises it starts it again (PostgreSQL's recovery then replays the log).
   */
  onEmbeddedDatabaseLost?: (why: Error) => void;
  /**
   * PostgreSQL only: channels whose notices sent with `notify_own` a pooled connection passes to
   * this process's `ownWritesAtOnce` listeners itself, before the statement's answer (ADR 094).
   * PGlite's one session always hears its own.
   */
  hearOwnNotices?: readonly string[];
};

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    return openPostgres(opts.databaseUrl, opts.onConnectionError ?? (() => {}), opts.hearOwnNotices ?? []);
  }
  return openPglite(opts.dataDir, opts.loadDataDir, opts.thread ?? "worker", opts.onEmbeddedDatabaseLost);
}

async function openPglite(
  dataDir: string,
  loadDataDir: Blob | undefined,
  thread: "worker" | "main",
  onLost?: (why: Error) => void,
): Promise<Database> {
  const inMemory = dataDir === "memory://";
  const release = inMemory ? () => {} : takeLock(dataDir);
  let client: PGlite;
  try {
    const defaults = (PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams;
    // Measured: the default buffers make a cold start slow and memory-hungry.
    // pg_trgm: the back office's search by any part of a name, email or subdomain (ADR 023).
    const pgDir = inMemory ? undefined : join(dataDir, "pg");
    const initial = loadDataDir ?? (pgDir ? emptyCluster(pgDir) : undefined);
    const startParams = [...defaults, "-c", "shared_buffers=16MB"];
    if (thread === "worker") {
      client = await createThreadedPglite({ dataDir: pgDir, startParams, loadDataDir: initial }, onLost);
    } else {
      const options = { startParams, extensions: { pg_trgm }, ...(initial ? { loadDataDir: initial } : {}) };
      client = await PGlite.create(pgDir, options);
    }
  } catch (err) {
    release();
    throw err;
  }
  const named = withNamedStatements(client);
  const db = drizzlePglite(named, { schema }) as unknown as Db;
  embedded.add(db);
  return {
    db,
    kind: "pglite",
    holdsEventLoop: thread === "main",
    migrate: async () => {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    },
    ping: async () => {
      await client.query("select 1");
    },
    snapshot: async () => {
      // The dump itself holds PGlite's query lock; the checkpoint first means a restore starts
      // from flushed pages instead of replaying the log.
      await client.query("CHECKPOINT");
      return client.dumpDataDir("none");
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

/** The setting a pooled connection asks `notify_own` (migration 0034) for a NOTICE with. */
const OWN_NOTICES_SETTING = "bookplate.own_notices";
/** The SQLSTATE of `notify_own`'s NOTICE: its message is the channel, its detail the payload. */
const OWN_NOTICE_SQLSTATE = "BPOWN";

async function openPostgres(
  url: string,
  onConnectionError: (err: Error) => void,
  hearOwnNotices: readonly string[],
): Promise<Database> {
  lightenArrayResults();
  // This process's own notices (`hearOwnNotices`, ADR 094), without a LISTEN on every pooled
  // connection: up to PostgreSQL 18 every NOTIFY wakes every backend that listens on any channel
  // of the database. A pooled connection asks `notify_own` for a NOTICE (the setting below); the
  // NOTICE reaches this process while the statement runs, before its answer, and is passed on at
  // once and again when the connection is handed back, after the commit (or rollback), which is
  // before the statement's or transaction's promise settles. The first tells listeners before
  // anything else this process reads can see the change; the second drops what a read that ran
  // between the NOTICE and the commit took from before the change.
  const poolChannels = new Map(hearOwnNotices.map((channel) => [channel, new Set<(payload: string) => void>()]));
  const heardOnConnection = new WeakMap<pg.PoolClient, { channel: string; payload: string }[]>();
  const passOn = (channel: string, payload: string) => {
    for (const hear of poolChannels.get(channel) ?? []) hear(payload);
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Awaited by the pool before a new connection's first use. A SET, not a startup option:
    // poolers such as PgBouncer refuse connections that carry startup options.
    onConnect: async (client) => {
      if (poolChannels.size > 0) await client.query(`set ${OWN_NOTICES_SETTING} = on`);
    },
  });
  if (poolChannels.size > 0) {
    pool.on("connect", (client) => {
      client.on("notice", (n) => {
        if (n.code !== OWN_NOTICE_SQLSTATE || !n.message || !poolChannels.has(n.message)) return;
        const heard = { channel: n.message, payload: n.detail ?? "" };
        const list = heardOnConnection.get(client);
        if (list) list.push(heard);
        else heardOnConnection.set(client, [heard]);
        passOn(heard.channel, heard.payload);
      });
    });
    pool.on("release", (_err, client) => {
      const list = heardOnConnection.get(client);
      if (!list) return;
      heardOnConnection.delete(client);
      for (const { channel, payload } of list) passOn(channel, payload);
    });
  }
  // The pool listens for errors on idle connections only. A connection the server drops while
  // it is checked out (mid-transaction, or between two statements of one) emits 'error' too,
  // and an 'error' event nobody listens to ends the process. The query in flight fails on its
  // own and its request answers with an error.
  // The dead connection is also handed back to the pool here, at once: Drizzle's transaction()
  // never releases its connection when `begin` itself fails, and ten such leaks would leave
  // every later request waiting forever for a connection.
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on("error", onConnectionError);
  pool.on("connect", (client) => {
    client.on("error", (err) => {
      if (!checkedOut.has(client)) return; // idle: the pool's own listener reports it
      checkedOut.delete(client);
      onConnectionError(err);
      const release = client.release;
      client.release = () => {}; // the holder's own release, later, must not throw
      release.call(client, err);
    });
  });
  pool.on("acquire", (client) => checkedOut.add(client));
  pool.on("release", (_err, client) => checkedOut.delete(client));
  const listening = listeningConnection(url, onConnectionError);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    holdsEventLoop: false,
    migrate: async () => {
      await migratePg(drizzlePg(pool, { schema }), { migrationsFolder });
    },
    ping: async () => {
      await pool.query("select 1");
    },
    listen: async (channel, onPayload, opts = {}) => {
      const onPool = opts.ownWritesAtOnce ? poolChannels.get(channel) : undefined;
      if (opts.ownWritesAtOnce && !onPool)
        throw new Error(`listen(${channel}, { ownWritesAtOnce }): name the channel in openDatabase's hearOwnNotices`);
      const subscription = { channel, onPayload, onReconnect: opts.onReconnect, onDown: opts.onDown };
      await listening.subscribe(subscription);
      onPool?.add(onPayload);
      return async () => {
        onPool?.delete(onPayload);
        await listening.unsubscribe(subscription);
      };
    },
    close: async () => {
      await listening.close();
      await pool.end();
    },
  };
}
