// Starts the real server for a test file: PGlite in memory by default, or a fresh database on
// the PostgreSQL server named by DATABASE_URL (created here, dropped on close).
import { mkdtempSync, rmSync } from "node:fs";
import { type IncomingHttpHeaders, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, type StartOptions, startServer } from "../app/server.ts";
import { type Env, loadEnv } from "../server/env.ts";
import { freePort, freshPostgres } from "./resources.ts";
import { startSmtpCatcher } from "./smtp-catcher.ts";

export type TestServer = RunningServer & {
  smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  /** The PostgreSQL database this server uses (undefined on PGlite). */
  databaseUrl: string | undefined;
  /** fetch against the app host, with the Origin a browser would send. */
  api(path: string, init?: RequestInit & { json?: unknown; cookie?: string }): Promise<Response>;
  /** GET under any Host name (a tenant site, a custom domain), which fetch cannot set. */
  onHost(host: string, path: string, headers?: Record<string, string>): Promise<HostAnswer>;
  /**
   * A form POST under any Host name (a reader's form on a tenant site): fields are sent
   * url-encoded, FormData as multipart.
   */
  postOnHost(
    host: string,
    path: string,
    form: Record<string, string> | URLSearchParams | FormData,
    headers?: Record<string, string>,
  ): Promise<HostAnswer>;
};

export type HostAnswer = { status: number; body: string; headers: IncomingHttpHeaders };

const smtpOfDatabase = new Map<string, Awaited<ReturnType<typeof startSmtpCatcher>>>();

export async function startTestServer(
  overrides: Record<string, string> = {},
  opts: {
    authRateLimit?: { window: number; max: number };
    /** Another test server's database: a second process on the same PostgreSQL data. */
    sharedDatabaseUrl?: string;
    /** PGlite in DATA_DIR/pg instead of in memory (backups and restores look at the files). */
    embeddedOnDisk?: boolean;
    /** The outbox sender's waits and retries (ADR 048). */
    mailDelivery?: StartOptions["mailDelivery"];
  } = {},
): Promise<TestServer> {
  // A second process on the same data uses the same mail server, as in production: either
  // process's outbox sender may send a mail the other queued (ADR 048).
  const borrowed = opts.sharedDatabaseUrl ? smtpOfDatabase.get(opts.sharedDatabaseUrl) : undefined;
  const smtp = borrowed ?? (await startSmtpCatcher());
  const dataDir = mkdtempSync(join(tmpdir(), "bookplate-test-"));
  const baseUrl = process.env.DATABASE_URL;
  const pgdb = opts.sharedDatabaseUrl
    ? { url: opts.sharedDatabaseUrl, drop: async () => {} }
    : baseUrl
      ? await freshPostgres(baseUrl)
      : undefined;
  if (pgdb && !borrowed) smtpOfDatabase.set(pgdb.url, smtp);
  // Port 0 needs the real port in APP_ORIGIN, so reserve one first. Another test file's process
  // may take it between the reservation and the listen: then another port, a few times.
  const started = async (attempt: number): Promise<{ port: number; env: Env; server: RunningServer }> => {
    const port = await freePort();
    const env = testEnv({
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: pgdb?.url ?? "",
      SMTP_URL: smtp.url,
      ...overrides,
    });
    try {
      const server = await startServer(env, {
        embeddedDir: pgdb || opts.embeddedOnDisk ? undefined : "memory://",
        authRateLimit: opts.authRateLimit ?? { window: 60, max: 1000 },
        mailDelivery: opts.mailDelivery,
      });
      return { port, env, server };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE" || attempt >= 5) throw err;
      return started(attempt + 1);
    }
  };
  const { port, env, server } = await started(1);
  return {
    ...server,
    smtp,
    databaseUrl: pgdb?.url,
    api(path, init = {}) {
      const { json, cookie, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (!headers.has("origin")) headers.set("origin", env.appOrigin);
      if (cookie) headers.set("cookie", cookie);
      if (json !== undefined) headers.set("content-type", "application/json");
      return fetch(`${server.url}${path}`, {
        ...rest,
        headers,
        body: json !== undefined ? JSON.stringify(json) : rest.body,
      });
    },
    onHost(host, path, headers = {}) {
      return hostRequest(port, host, "GET", path, headers);
    },
    async postOnHost(host, path, form, headers = {}) {
      const encoded = new Response(form instanceof FormData ? form : new URLSearchParams(form));
      const bytes = Buffer.from(await encoded.arrayBuffer());
      return hostRequest(
        port,
        host,
        "POST",
        path,
        {
          "content-type": encoded.headers.get("content-type") ?? "",
          "content-length": String(bytes.length),
          ...headers,
        },
        bytes,
      );
    },
    async close() {
      await server.close();
      if (!borrowed) {
        await smtp.close();
        if (pgdb) smtpOfDatabase.delete(pgdb.url);
      }
      await pgdb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test server's configuration: `overrides` on quiet, demo-free defaults on 127.0.0.1. */
export function testEnv(overrides: Record<string, string>) {
  return loadEnv({
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    DATABASE_URL: "",
    SMTP_URL: "",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
    SEED_DEMO: "false",
    // No start-up warm-up (ADR 075): a test's first requests need no warm renderer, and every
    // test server would pay up to 400 ms for it. The warm-up's own tests call it directly, and
    // the fault suite starts the production server, warm-up included.
    WARM_UP_MS: "0",
    ...overrides,
  });
}

/**
 * One request over node:http with the Host header given (fetch cannot set Host), the answer's body
 * as the bytes sent (a compressed one, say).
 */
export function hostRequestBytes(
  port: number,
  host: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<Omit<HostAnswer, "body"> & { body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, method, headers: { host: `${host}:${port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The same, the answer's body read as UTF-8 text. */
export async function hostRequest(...args: Parameters<typeof hostRequestBytes>): Promise<HostAnswer> {
  const res = await hostRequestBytes(...args);
  return { ...res, body: res.body.toString("utf8") };
}

export { freePort } from "./resources.ts";

/** The cookie header to send back, from a response's Set-Cookie headers. */
export function cookiesFrom(res: Response, previous = ""): string {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((kv) => [kv.split("=")[0] ?? "", kv] as const),
  );
  for (const sc of res.headers.getSetCookie()) {
    const kv = sc.split(";")[0] ?? "";
    const name = kv.split("=")[0] ?? "";
    if (/max-age=0/i.test(sc) || kv.endsWith("=")) jar.delete(name);
    else jar.set(name, kv);
  }
  return [...jar.values()].join("; ");
}
