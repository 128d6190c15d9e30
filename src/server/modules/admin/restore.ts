// Restoring a backup (ADR 046) into the DATA_DIR / DATABASE_URL the configuration names. It
// refuses to overwrite: an embedded database or uploads already in DATA_DIR, or any table in the
// PostgreSQL database, stop it unless `force` (then the old files are moved aside, or pg_restore
// drops what the backup holds before restoring it). Nothing runs while a server holds DATA_DIR.
import { createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../../db/client.ts";
import { dataDirHolder } from "../../../db/data-dir-lock.ts";
import type { Env } from "../../env.ts";
import { localStorage, type Storage, safeStorageKey } from "../../lib/storage.ts";
import { ArchiveError, readTarGz } from "../../lib/tar.ts";
import {
  AUTH_SECRET_ENTRY,
  BACKUP_FORMAT,
  BACKUP_VERSION,
  MANIFEST,
  type Manifest,
  PGLITE_ENTRY,
  POSTGRES_ENTRY,
  UPLOADS_DIR,
} from "./backups.ts";
import { findPgTool, pgConnection, runPgTool } from "./pg-tools.ts";

/** A restore that would do harm or cannot work: the message says what to do instead. */
export class RestoreRefused extends Error {}

export type RestoreResult = { manifest: Manifest; uploads: number; movedAside: string | undefined };

const CONTENT_TYPES: Record<string, string> = {
  webp: "image/webp",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  pdf: "application/pdf",
  epub: "application/epub+zip",
};

async function nonEmpty(path: string): Promise<boolean> {
  try {
    return (await readdir(path)).length > 0;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

async function postgresTableCount(databaseUrl: string): Promise<number> {
  const database = await openDatabase({ databaseUrl, dataDir: "" });
  try {
    const res = await database.db.execute(
      sql`select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
    );
    return Number((res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  } finally {
    await database.close();
  }
}

export async function restoreBackup(opts: {
  env: Env;
  file: string;
  force: boolean;
  log?: (line: string) => void;
}): Promise<RestoreResult> {
  const { env, file, force } = opts;
  const log = opts.log ?? (() => {});
  if (!(await exists(file))) throw new RestoreRefused(`No such file: ${file}`);
  const target = env.databaseUrl ? "postgres" : "pglite";
  const uploadsRoot = join(env.dataDir, "uploads");
  let storage: Storage | undefined;
  let manifest: Manifest | undefined;
  let movedAside: string | undefined;
  let databaseRestored = false;
  let uploads = 0;

  async function checkTarget(m: Manifest) {
    if (m.database !== target) {
      throw new RestoreRefused(
        m.database === "pglite"
          ? "This backup is of the embedded database (PGlite) but DATABASE_URL is set. Unset DATABASE_URL to restore it into DATA_DIR."
          : "This backup is of a PostgreSQL database but DATABASE_URL is not set. Set DATABASE_URL to the (empty) database to restore it into.",
      );
    }
    if (target === "pglite") {
      const holder = dataDirHolder(env.dataDir);
      if (holder !== undefined) {
        throw new RestoreRefused(
          `A Bookplate server (pid ${holder}) is using ${env.dataDir}. Stop it, then run the restore again.`,
        );
      }
      const occupied = [join(env.dataDir, "pg"), ...(env.s3 ? [] : [uploadsRoot])];
      const full = [];
      for (const dir of occupied) if (await nonEmpty(dir)) full.push(dir);
      if (full.length && !force) {
        throw new RestoreRefused(
          `${full.join(" and ")} already ${full.length > 1 ? "hold" : "holds"} data, and a restore never overwrites it. ` +
            "Point DATA_DIR at an empty directory, or add --force to move the current data aside and restore.",
        );
      }
      if (full.length || (force && (await exists(join(env.dataDir, AUTH_SECRET_ENTRY))))) {
        movedAside = join(env.dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`);
        await mkdir(movedAside, { recursive: true });
        for (const name of ["pg", "uploads", AUTH_SECRET_ENTRY]) {
          if (name === "uploads" && env.s3) continue;
          const from = join(env.dataDir, name);
          if (await exists(from)) await rename(from, join(movedAside, name));
        }
        log(`Moved the current data aside to ${movedAside}`);
      }
    } else if (env.databaseUrl) {
      const tables = await postgresTableCount(env.databaseUrl);
      if (tables > 0 && !force) {
        throw new RestoreRefused(
          `The database in DATABASE_URL is not empty (${tables} tables), and a restore never overwrites it. ` +
            "Create an empty database and point DATABASE_URL at it, or add --force to replace what the backup holds (pg_restore --clean).",
        );
      }
    }
    if (!m.includesUploads) log("This backup holds no uploads: they were in an S3 bucket, which backups do not copy.");
    storage = env.s3 ? (await import("../../lib/s3-storage.ts")).s3Storage(env.s3) : localStorage(uploadsRoot);
  }

  try {
    // Read through once first: a damaged or cut-off file is refused before anything is written.
    await readTarGz(file, async () => {});
    await readEntries();
  } catch (err) {
    if (err instanceof ArchiveError)
      throw new RestoreRefused(`${file} is not a usable Bookplate backup: ${err.message}.`);
    throw err;
  }
  if (!manifest) throw new RestoreRefused(`${file} is empty: not a Bookplate backup.`);
  if (!databaseRestored) throw new Error(`${file} holds no database: the backup is incomplete.`);
  log(`${uploads} uploads restored`);
  return { manifest, uploads, movedAside };

  async function readEntries() {
    await readTarGz(file, async (entry, data) => {
      if (!manifest) {
        if (entry.name !== MANIFEST) throw new RestoreRefused(`${file} is not a Bookplate backup (no manifest first).`);
        let parsed: Partial<Manifest>;
        try {
          parsed = JSON.parse((await collect(data)).toString("utf8")) as Partial<Manifest>;
        } catch {
          throw new RestoreRefused(`${file} is not a Bookplate backup (unreadable manifest).`);
        }
        if (parsed.format !== BACKUP_FORMAT || typeof parsed.version !== "number") {
          throw new RestoreRefused(`${file} is not a Bookplate backup.`);
        }
        if (parsed.version > BACKUP_VERSION) {
          throw new RestoreRefused(
            `${file} was made by a newer Bookplate (backup format ${parsed.version}); upgrade first.`,
          );
        }
        manifest = parsed as Manifest;
        log(`Backup of ${manifest.createdAt} (${manifest.database})`);
        await checkTarget(manifest);
        return;
      }
      if (entry.name === PGLITE_ENTRY && target === "pglite") {
        const snapshot = new Blob([new Uint8Array(await collect(data))]);
        await mkdir(env.dataDir, { recursive: true });
        const database = await openDatabase({ dataDir: env.dataDir, loadDataDir: snapshot, thread: env.pgliteThread });
        await database.close();
        databaseRestored = true;
        log("Database restored into DATA_DIR/pg");
      } else if (entry.name === POSTGRES_ENTRY && target === "postgres" && env.databaseUrl) {
        const dump = join(tmpdir(), `bookplate-restore-${process.pid}-${Date.now()}.dump`);
        try {
          await pipeline(data, createWriteStream(dump, { mode: 0o600 }));
          const pgRestore = await findPgTool("pg_restore", manifest.postgresMajor);
          const { dbname, env: pgEnv } = pgConnection(env.databaseUrl);
          await runPgTool(
            pgRestore,
            [
              "--no-owner",
              "--no-privileges",
              "--exit-on-error",
              "--single-transaction",
              ...(force ? ["--clean", "--if-exists"] : []),
              `--dbname=${dbname}`,
              dump,
            ],
            pgEnv,
          );
        } finally {
          await rm(dump, { force: true });
        }
        databaseRestored = true;
        log("Database restored with pg_restore");
      } else if (entry.name === AUTH_SECRET_ENTRY) {
        const path = join(env.dataDir, AUTH_SECRET_ENTRY);
        const secret = await collect(data);
        if (!(await exists(path))) {
          await mkdir(env.dataDir, { recursive: true });
          await writeFile(path, secret, { mode: 0o600 });
        } else if (!(await readFile(path)).equals(secret)) {
          log(
            `Kept the ${path} already there, which differs from the backup's: accounts with two-factor sign-in ` +
              "need the backup's secret (restore with --force to use it).",
          );
        }
      } else if (entry.name.startsWith(UPLOADS_DIR) && storage) {
        const key = safeStorageKey(entry.name.slice(UPLOADS_DIR.length));
        const ext = key.split(".").pop()?.toLowerCase() ?? "";
        await storage.put(key, await collect(data), CONTENT_TYPES[ext] ?? "application/octet-stream");
        uploads++;
      }
    });
  }
}
