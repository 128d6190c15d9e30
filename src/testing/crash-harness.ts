// The kill-and-restart harness of the crash tests (ADR 066, 073): the real server bundle as a
// child process on a data directory on disk (and, with DATABASE_URL, a PostgreSQL database of its
// own), a real SMTP server that SIGKILLs it while holding the Nth message, and a restart on the
// same port. Set-up and inspection run in this process on the same data, between the children.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { type ServerProcess, startServerProcess } from "./faults/server-process.ts";
import { freePort, freshPostgres } from "./resources.ts";
import { startSmtpRecorder } from "./smtp-recorder.ts";
import { startTestServer, type TestServer } from "./test-server.ts";

export type CrashHarness = Awaited<ReturnType<typeof openCrashHarness>>;

/** The test file's harness, once `startCrashHarness()` has started it. */
export let crash: CrashHarness;

/**
 * Starts the test file's harness before its tests, with `prepare` run first on the data in this
 * process (the author, their readers, what they send), and closes it after them.
 */
export function startCrashHarness(
  opts: { name: string; secret: string; killAt: number },
  prepare: (setup: TestServer) => Promise<void>,
) {
  beforeAll(async () => {
    crash = await openCrashHarness(opts);
    await crash.inProcess(prepare);
  }, 180_000);
  afterAll(async () => {
    await crash?.close();
  });
}

export async function openCrashHarness(opts: { name: string; secret: string; killAt: number }) {
  const recorder = await startSmtpRecorder(opts.killAt);
  const dataDir = mkdtempSync(join(tmpdir(), `bookplate-${opts.name}-`));
  const pg = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : undefined;
  const port = await freePort();
  let server: ServerProcess | undefined;

  const start = async () => {
    server = await startServerProcess({
      port,
      dataDir,
      databaseUrl: pg?.url,
      smtpUrl: recorder.url,
      env: {
        AUTH_SECRET: opts.secret,
        NEWSLETTER_SEND_RATE: "50",
        // A mail whose process died goes again after this: kept short so the test does not wait.
        MAIL_LEASE_SECONDS: "3",
      },
    });
    return server;
  };

  return {
    recorder,
    port,
    /** A server in this process on the same data, closed once `run` is done. */
    async inProcess<T>(run: (setup: TestServer) => Promise<T>): Promise<T> {
      const setup = await startTestServer(
        { DATA_DIR: dataDir, AUTH_SECRET: opts.secret, ...(pg ? { DATABASE_URL: pg.url } : {}) },
        { embeddedOnDisk: true },
      );
      try {
        return await run(setup);
      } finally {
        await setup.close();
      }
    },
    /**
     * Starts the server process, runs `trigger` (what makes it send, if starting does not), and
     * waits for it to die at the `killAt`th message; returns the message it held, never accepted.
     */
    async killedMidSend(trigger?: () => Promise<void>) {
      const first = await start();
      recorder.whenNth(async () => {
        await first.kill("SIGKILL");
      });
      await trigger?.();
      expect(await first.exited).toBe("SIGKILL");
      // Died with mails to go: the one it held, and those after it.
      expect(recorder.received).toHaveLength(opts.killAt);
      expect([...recorder.accepted.values()].flat()).toHaveLength(opts.killAt - 1);
      return recorder.received[opts.killAt - 1];
    },
    /** Starts the server process again, on the same port and data. */
    restart: start,
    async close() {
      await server?.kill("SIGKILL");
      await recorder.close();
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `count` confirmed readers and two who are not (one pending, one unsubscribed), as rows to insert. */
export function crashReaders(prefix: string, count: number) {
  const reader = (i: number, status: string) => `${prefix}-${i}-${status}@example.com`;
  const confirmed = Array.from({ length: count }, (_, i) => reader(i, "confirmed"));
  const others = [reader(0, "pending"), reader(1, "unsubscribed")];
  const rows = [...confirmed, ...others].map((email) => ({
    email,
    status: (email.includes("-confirmed") ? "confirmed" : email.includes("-pending") ? "pending" : "unsubscribed") as
      | "confirmed"
      | "pending"
      | "unsubscribed",
    confirmToken: randomBytes(18).toString("base64url"),
  }));
  return { confirmed, others, rows };
}

/**
 * None missed, none twice: each confirmed reader has exactly one mail, the others none, and the
 * message the dead server held went again with the same Message-ID. Returns the Message-IDs.
 */
export function expectEachOnce(
  readers: { confirmed: string[]; others: string[] },
  held: { to: string; messageId: string } | undefined,
) {
  const { accepted } = crash.recorder;
  expect(readers.confirmed.map((e) => accepted.get(e)?.length ?? 0)).toEqual(readers.confirmed.map(() => 1));
  expect(readers.others.map((e) => accepted.get(e)?.length ?? 0)).toEqual([0, 0]);
  expect([...accepted.keys()].sort()).toEqual([...readers.confirmed].sort());
  expect(accepted.get(held?.to ?? "")).toEqual([held?.messageId]);
  const ids = [...accepted.values()].flat();
  expect(new Set(ids).size).toBe(readers.confirmed.length);
  return ids;
}
