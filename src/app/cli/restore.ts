// `npm run restore -- <backup file> [--force]`: restores a backup (ADR 046) into the DATA_DIR or
// DATABASE_URL the configuration names. Refuses to overwrite data unless --force.
import { loadEnv } from "../../server/env.ts";
import { PgToolMissing } from "../../server/modules/admin/pg-tools.ts";
import { RestoreRefused, restoreBackup } from "../../server/modules/admin/restore.ts";
import { runCli } from "./run-cli.ts";

const USAGE = `Usage: npm run restore -- <backup.tar.gz> [--force]
  Restores into DATA_DIR (embedded database) or the empty database in DATABASE_URL.
  --force  also when data is already there: DATA_DIR's database and uploads are moved aside
           to DATA_DIR/before-restore-<time>/; on PostgreSQL what the backup holds is replaced.`;

async function main(argv: string[]): Promise<number> {
  const force = argv.includes("--force");
  const files = argv.filter((a) => a !== "--force");
  if (files.length !== 1 || files[0]?.startsWith("-")) {
    console.error(USAGE);
    return 2;
  }
  const env = loadEnv();
  const result = await restoreBackup({ env, file: files[0] as string, force, log: (line) => console.log(line) });
  console.log(
    `Restored the backup of ${result.manifest.createdAt}. Start the server (npm start); it applies any newer migrations.`,
  );
  return 0;
}

runCli(import.meta.url, main, [RestoreRefused, PgToolMissing]);
