// `npm run backup`: the same backup as the back office's Database Maintenance (ADR 046), from the
// shell, into DATA_DIR/backups. With the embedded database only while no server runs on DATA_DIR
// (PGlite allows one process): the back office's button takes one while serving.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DataDirLockedError } from "../../db/data-dir-lock.ts";
import { loadEnv } from "../../server/env.ts";
import { localStorage } from "../../server/lib/storage.ts";
import { backupsDir, createBackup } from "../../server/modules/admin/backups.ts";
import { PgToolMissing } from "../../server/modules/admin/pg-tools.ts";
import { runCli, withDatabase } from "./run-cli.ts";

export const SERVER_RUNNING =
  "A Bookplate server is running on this data directory, and the embedded database allows one process at a time.\n" +
  "Take the backup in the back office instead (Admin → Settings → Admin Actions → Database Maintenance): it makes\n" +
  "the same consistent backup while the server runs. Or stop the server and run `npm run backup` again.";

async function main(argv: string[]): Promise<number> {
  if (argv.length > 0) {
    console.error("Usage: npm run backup   (writes DATA_DIR/backups/bookplate-<time>.tar.gz)");
    return 2;
  }
  const env = loadEnv();
  if (!env.databaseUrl && !existsSync(join(env.dataDir, "pg", "PG_VERSION"))) {
    console.error(`There is no database in ${env.dataDir} to back up (set DATA_DIR or DATABASE_URL).`);
    return 1;
  }
  try {
    return await withDatabase(env, async (database) => {
      const storage = env.s3
        ? (await import("../../server/lib/s3-storage.ts")).s3Storage(env.s3)
        : localStorage(join(env.dataDir, "uploads"));
      const backup = await createBackup({
        database,
        storage,
        dataDir: env.dataDir,
        databaseUrl: env.databaseUrl,
        keep: env.backupKeep,
      });
      console.log(`Backup written: ${join(backupsDir(env.dataDir), backup.name)} (${backup.sizeBytes} bytes)`);
      if (env.s3)
        console.log("Uploads are in the S3 bucket, which a backup does not copy: back the bucket up on its own.");
      return 0;
    });
  } catch (err) {
    // Only opening the database refuses so: another process (a server) holds the data directory.
    if (err instanceof DataDirLockedError) {
      console.error(`\n${SERVER_RUNNING}\n`);
      return 1;
    }
    throw err;
  }
}

runCli(import.meta.url, main, [PgToolMissing]);
