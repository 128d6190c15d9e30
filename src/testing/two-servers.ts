// Two app servers on one PostgreSQL database, as two processes behind a proxy would be: each has
// its own pools, page cache and LISTEN connection; only the database is shared. `startTwoServers()`
// at the top of a test file starts `a` and `b` (with an author made through `a`) before the
// file's tests and stops them after. PGlite is one process's database: nothing starts there, and
// the file's tests are `describe.skipIf(!onPostgres)`.
import { afterAll, beforeAll } from "vitest";
import { startTestServer, type TestServer } from "./test-server.ts";
import { createAuthor, type TestAuthor } from "./users.ts";

export const onPostgres = Boolean(process.env.DATABASE_URL);
export let a: TestServer;
export let b: TestServer;
export let author: TestAuthor;

/** Starts the file's two servers, both with `env`, and an author on them. */
export function startTwoServers(env: Record<string, string> = {}) {
  beforeAll(async () => {
    if (!onPostgres) return;
    a = await startTestServer(env);
    b = await startTestServer(env, { sharedDatabaseUrl: a.databaseUrl });
    author = await createAuthor(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });
}
