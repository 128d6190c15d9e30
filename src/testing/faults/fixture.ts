// A server process for the fault suite: on a fixed port and data directory, so that the suite can
// kill and restart it, with short HTTP timeouts so that slow clients are cut off in seconds.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { startSmtpCatcher } from "../smtp-catcher.ts";
import { freePort, type TestServer } from "../test-server.ts";
import { startServerProcess } from "./server-process.ts";

type SmtpCatcher = Awaited<ReturnType<typeof startSmtpCatcher>>;

// Short on purpose, so that the suite sees slow clients cut off in seconds; production defaults
// are longer (README), the mechanism is the same.
export const HEADERS_TIMEOUT_S = 3;
export const REQUEST_TIMEOUT_S = 6;
const serverEnv = {
  HTTP_HEADERS_TIMEOUT: String(HEADERS_TIMEOUT_S),
  HTTP_REQUEST_TIMEOUT: String(REQUEST_TIMEOUT_S),
};

/** A server process on a fixed port and data directory, which the suite may kill and restart. */
export async function serverFixture(smtp: SmtpCatcher, databaseUrl?: string) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-faults-"));
  const start = () => startServerProcess({ port, dataDir, databaseUrl, smtpUrl: smtp.url, env: serverEnv });
  const first = await start().catch((err: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  });
  const fixture = {
    port,
    base: `http://localhost:${port}`,
    server: first,
    async restart() {
      fixture.server = await start();
    },
    /** Enough of a test server for the helpers that sign an author up. */
    asTestServer(): TestServer {
      const base = fixture.base;
      return {
        smtp,
        api(path: string, init: RequestInit & { json?: unknown; cookie?: string } = {}) {
          const { json, cookie, ...rest } = init;
          const headers = new Headers(rest.headers);
          headers.set("origin", base);
          if (cookie) headers.set("cookie", cookie);
          if (json !== undefined) headers.set("content-type", "application/json");
          return fetch(`${base}${path}`, {
            ...rest,
            headers,
            body: json !== undefined ? JSON.stringify(json) : rest.body,
          });
        },
      } as unknown as TestServer;
    },
    async close() {
      await fixture.server.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return fixture;
}
export type Fixture = Awaited<ReturnType<typeof serverFixture>>;
