// One real server per test file, for the files that need nothing more: `startFileServer()` at
// the top of the file starts it before the file's tests (and before the file's own beforeAll) and
// stops it after them; `s` is that server. Each test file has its own module, so its own `s`.
import { afterAll, beforeAll } from "vitest";
import { startTestServer, type TestServer } from "./test-server.ts";
import { createAuthor, type TestAuthor } from "./users.ts";

/** The test file's server, once `startFileServer()` has started it. */
export let s: TestServer;

/** Starts the test file's server (and stops it after the file). */
export function startFileServer(...args: Parameters<typeof startTestServer>) {
  beforeAll(async () => {
    s = await startTestServer(...args);
  });
  afterAll(async () => {
    await s?.close();
  });
}

/** The author `startFileServerWithAuthor()` makes on the file's server. */
export let author: TestAuthor;

/** Starts the test file's server with one author on it, made before the file's tests. */
export function startFileServerWithAuthor(...args: Parameters<typeof startTestServer>) {
  startFileServer(...args);
  beforeAll(async () => {
    author = await createAuthor(s);
  });
}
