// Backups (ADR 046): one .tar.gz in DATA_DIR/backups holding a manifest, the database (PGlite: a
// snapshot of its data directory taken under its query lock; PostgreSQL: `pg_dump -Fc`) and every
// local upload. The database goes first: an upload is stored before the row that names it, so
// every upload a backed-up row names was already on disk when the uploads were copied.
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { ADMIN_ACTION_MESSAGES, BACKUP_NAME, type Backup } from "../../../shared/schemas/back-office-actions.ts";
import { conflictError, notFoundError } from "../../lib/domain-error.ts";
import type { Storage } from "../../lib/storage.ts";
import { tarGzWriter } from "../../lib/tar.ts";
import { findPgTool, pgConnection, runPgTool } from "./pg-tools.ts";

export const BACKUP_FORMAT = "bookplate-backup";
export const BACKUP_VERSION = 1;
export const MANIFEST = "manifest.json";
export const PGLITE_ENTRY = "database/pgdata.tar";
export const POSTGRES_ENTRY = "database/postgres.dump";
export const UPLOADS_DIR = "uploads/";
/** DATA_DIR/auth-secret (when AUTH_SECRET is not set): two-factor secrets are sealed with it. */
export const AUTH_SECRET_ENTRY = "auth-secret";

export type Manifest = {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  database: "pglite" | "postgres";
  /** PostgreSQL's major version (PGlite's embedded one, or the server's). */
  postgresMajor: number;
  /** False when uploads live in an S3 bucket: the bucket is not copied. */
  includesUploads: boolean;
};

export type BackupDeps = {
  database: Database;
  storage: Storage;
  dataDir: string;
  databaseUrl: string | undefined;
  keep: number;
};

export const backupsDir = (dataDir: string) => join(dataDir, "backups");

/** `bookplate-2026-11-26T05-06-10-123Z.tar.gz`: sorts by time, and names nothing else. */
const backupName = (at: Date) => `bookplate-${at.toISOString().replace(/[:.]/g, "-")}.tar.gz`;

function createdAtOf(name: string): string {
  const m = /^bookplate-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z/.exec(name);
  return m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z` : new Date(0).toISOString();
}

async function postgresMajor(database: Database): Promise<number> {
  const res = await database.db.execute(sql`select current_setting('server_version_num')::int / 10000 as major`);
  return Number((res as unknown as { rows: { major: number }[] }).rows[0]?.major);
}

// One backup at a time in this process: two would double the disk and the database's work.
let running = false;

export async function createBackup(deps: BackupDeps, now = new Date()): Promise<Backup> {
  if (running) throw conflictError(ADMIN_ACTION_MESSAGES.backupRunning);
  running = true;
  try {
    return await writeBackup(deps, now);
  } finally {
    running = false;
  }
}

async function writeBackup(deps: BackupDeps, now: Date): Promise<Backup> {
  const dir = backupsDir(deps.dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const name = backupName(now);
  const partial = join(dir, `.${name}.partial`);
  const dumpFile = join(dir, `.${name}.dump`);
  const local = deps.storage.localRoot;
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: now.toISOString(),
    database: deps.database.kind,
    postgresMajor: await postgresMajor(deps.database),
    includesUploads: local !== undefined,
  };
  // Checked before any file is written: a missing pg_dump is the person's to fix, plainly said.
  const pgDump = deps.database.kind === "postgres" ? await findPgTool("pg_dump", manifest.postgresMajor) : undefined;
  const tar = tarGzWriter(partial);
  try {
    await tar.addBytes(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), now);
    if (deps.database.kind === "pglite") {
      if (!deps.database.snapshot) throw new Error("this database handle cannot take a snapshot");
      const snapshot = await deps.database.snapshot();
      await tar.addStream(PGLITE_ENTRY, snapshot.size, snapshot.stream(), now);
    } else {
      if (!deps.databaseUrl || !pgDump) throw new Error("PostgreSQL backup without DATABASE_URL");
      const { dbname, env } = pgConnection(deps.databaseUrl);
      // Custom format: compressed, and pg_restore can restore it in one transaction.
      await runPgTool(
        pgDump,
        ["--format=custom", "--no-owner", "--no-privileges", `--file=${dumpFile}`, `--dbname=${dbname}`],
        env,
      );
      await tar.addFile(POSTGRES_ENTRY, dumpFile);
    }
    const secret = join(deps.dataDir, AUTH_SECRET_ENTRY);
    if (
      await stat(secret).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      await tar.addFile(AUTH_SECRET_ENTRY, secret);
    if (local !== undefined) {
      for (const file of await filesUnder(local)) await tar.addFile(`${UPLOADS_DIR}${file}`, join(local, file));
    }
    await tar.finish();
    await rename(partial, join(dir, name));
  } catch (err) {
    await tar.abort();
    await rm(partial, { force: true });
    throw err;
  } finally {
    await rm(dumpFile, { force: true });
  }
  await pruneBackups(deps.dataDir, deps.keep);
  const info = await stat(join(dir, name));
  return { name, sizeBytes: info.size, createdAt: createdAtOf(name) };
}

/** Every file under `root`, relative, sorted (a file removed meanwhile is simply not there). */
async function filesUnder(root: string): Promise<string[]> {
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
      .sort();
  } catch {
    return [];
  }
}

/** Newest first. */
export async function listBackups(dataDir: string): Promise<Backup[]> {
  let names: string[];
  try {
    names = (await readdir(backupsDir(dataDir))).filter((n) => BACKUP_NAME.test(n));
  } catch {
    return [];
  }
  const out: Backup[] = [];
  for (const name of names.sort().reverse()) {
    try {
      const info = await stat(join(backupsDir(dataDir), name));
      out.push({ name, sizeBytes: info.size, createdAt: createdAtOf(name) });
    } catch {
      // Pruned meanwhile.
    }
  }
  return out;
}

async function pruneBackups(dataDir: string, keep: number) {
  const all = await listBackups(dataDir);
  for (const old of all.slice(keep)) await rm(join(backupsDir(dataDir), old.name), { force: true });
}

/** The file of a listed backup; any other name is 404 (no path reaches outside the folder). */
export async function backupFile(dataDir: string, name: string): Promise<{ path: string; sizeBytes: number }> {
  if (!BACKUP_NAME.test(name)) throw notFoundError(ADMIN_ACTION_MESSAGES.backupNotFound);
  const path = join(backupsDir(dataDir), name);
  try {
    return { path, sizeBytes: (await stat(path)).size };
  } catch {
    throw notFoundError(ADMIN_ACTION_MESSAGES.backupNotFound);
  }
}
