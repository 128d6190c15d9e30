// What the operator's commands (`npm run admin`, `backup`, `restore`) share: running as the
// program, and the database the configuration names, open for the command and closed after it.
import { openDatabase } from "../../db/client.ts";
import type { Env } from "../../server/env.ts";

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Runs `main` with the command's arguments when `moduleUrl` is the program (not when a test
 * imports the file); its answer is the exit code. An error of one of the `explained` classes is
 * printed as its message alone (it tells the operator what to do), anything else in full.
 */
export function runCli(moduleUrl: string, main: (argv: string[]) => Promise<number>, explained: ErrorClass[] = []) {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(explained.some((c) => err instanceof c) ? `\n${(err as Error).message}\n` : err);
      process.exit(1);
    },
  );
}

/** `fn` with the configuration's database, closed afterwards whatever happens. */
export async function withDatabase<T>(
  env: Env,
  fn: (database: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>,
): Promise<T> {
  const database = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir, thread: env.pgliteThread });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}
