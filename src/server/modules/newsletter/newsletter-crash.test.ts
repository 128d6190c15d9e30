// A newsletter survives a bad day (issue 32, ADR 066): the real server, as its own process, is
// SIGKILLed in the middle of sending one, started again, and finishes it — every confirmed reader
// gets exactly one copy: none missed, none twice. The mail server is a real SMTP server in this
// process that records what it accepted for each address; it kills the server deterministically
// while the Nth message is in its hands, before it answers 250 (the copy was not accepted, so
// the restarted server must send it again, with the same Message-ID).
// Runs on PGlite (a data directory on disk) and, with DATABASE_URL, on PostgreSQL.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { newsletterSubscribers } from "../../../db/schema/index.ts";
import { type ServerProcess, startServerProcess } from "../../../testing/faults/server-process.ts";
import { freePort, freshPostgres } from "../../../testing/resources.ts";
import { startTestServer } from "../../../testing/test-server.ts";
import { createAuthor } from "../../../testing/users.ts";

const SECRET = "newsletter-crash-secret-newsletter-crash-secret-0123";
const READERS = 30;
/** The server dies while the mail server holds this message (1-based), before answering it. */
const KILL_AT = 12;

const dataDir = mkdtempSync(join(tmpdir(), "bookplate-newsletter-crash-"));
let pg: Awaited<ReturnType<typeof freshPostgres>> | undefined;
let cookie = "";
let newsletterId = "";
let confirmed: string[] = [];
let pending: string[] = [];
let server: ServerProcess | undefined;

/** A real SMTP server recording, per address, the Message-IDs it accepted (answered 250). */
async function startRecorder() {
  const accepted = new Map<string, string[]>();
  const received: { to: string; messageId: string }[] = [];
  let onNth: (() => Promise<void>) | null = null;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks)
          .toString("utf8")
          .replace(/\r?\n[ \t]+/g, " ");
        const messageId = /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? "";
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase()).join(",");
        received.push({ to, messageId });
        if (received.length === KILL_AT && onNth) {
          // The server dies holding this message: no 250 ever reaches it.
          await onNth();
          callback(Object.assign(new Error("Gone"), { responseCode: 421 }));
          return;
        }
        accepted.set(to, [...(accepted.get(to) ?? []), messageId]);
        callback();
      });
    },
  });
  await new Promise<void>((ok) => smtp.listen(0, "127.0.0.1", ok));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    accepted,
    received,
    whenNth(run: () => Promise<void>) {
      onNth = run;
    },
    close: () => new Promise<void>((ok) => smtp.close(() => ok())),
  };
}
let recorder: Awaited<ReturnType<typeof startRecorder>>;

beforeAll(async () => {
  recorder = await startRecorder();
  if (process.env.DATABASE_URL) pg = await freshPostgres(process.env.DATABASE_URL);
  // The author, their readers and the draft, made in this process on the same data; then it stops.
  const setup = await startTestServer(
    { DATA_DIR: dataDir, AUTH_SECRET: SECRET, ...(pg ? { DATABASE_URL: pg.url } : {}) },
    { embeddedOnDisk: true },
  );
  try {
    const author = await createAuthor(setup);
    cookie = author.cookie;
    const reader = (i: number, status: string) => `reader-${i}-${status}@example.com`;
    confirmed = Array.from({ length: READERS }, (_, i) => reader(i, "confirmed"));
    pending = [reader(0, "pending"), reader(1, "unsubscribed")];
    await setup.database.db.insert(newsletterSubscribers).values(
      [...confirmed, ...pending].map((email) => ({
        userId: author.id,
        email,
        status: email.includes("-confirmed") ? "confirmed" : email.includes("-pending") ? "pending" : "unsubscribed",
        confirmToken: randomBytes(18).toString("base64url"),
      })),
    );
    const made = await setup.api("/api/newsletters", {
      method: "POST",
      cookie,
      json: { subject: "The crash-proof newsletter", content: "<p>Every reader once.</p>" },
    });
    expect(made.status).toBe(201);
    newsletterId = ((await made.json()) as { newsletter: { id: string } }).newsletter.id;
  } finally {
    await setup.close();
  }
}, 180_000);

afterAll(async () => {
  await server?.kill("SIGKILL");
  await recorder?.close();
  await pg?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(port: number) {
  return startServerProcess({
    port,
    dataDir,
    databaseUrl: pg?.url,
    smtpUrl: recorder.url,
    env: {
      AUTH_SECRET: SECRET,
      NEWSLETTER_SEND_RATE: "50",
      // A copy whose process died goes again after this: kept short so the test does not wait.
      MAIL_LEASE_SECONDS: "3",
    },
  });
}

const api = (port: number, path: string, init: RequestInit = {}) =>
  fetch(`http://localhost:${port}${path}`, {
    ...init,
    headers: { origin: `http://localhost:${port}`, cookie, "content-type": "application/json", ...init.headers },
  });

it("is killed mid-send, restarted, and every confirmed reader has exactly one copy", async () => {
  const port = await freePort();
  server = await start(port);
  const first = server;
  recorder.whenNth(async () => {
    await first.kill("SIGKILL");
  });
  const sent = await api(port, `/api/newsletters/${newsletterId}/send`, { method: "POST", body: "{}" });
  expect(sent.status).toBe(200);
  expect(await first.exited).toBe("SIGKILL");
  // Died with copies to go: the one it held, and those after it.
  expect(recorder.received).toHaveLength(KILL_AT);
  const held = recorder.received[KILL_AT - 1];
  expect([...recorder.accepted.values()].flat()).toHaveLength(KILL_AT - 1);

  server = await start(port);
  const deadline = Date.now() + 60_000;
  let figures: Record<string, number> = {};
  for (;;) {
    const res = await api(port, `/api/newsletters/${newsletterId}/figures`);
    figures = (await res.json()) as Record<string, number>;
    if (figures.waiting === 0 && figures.sent === READERS) break;
    if (Date.now() > deadline) throw new Error(`the send did not finish: ${JSON.stringify(figures)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(figures).toMatchObject({ sent: READERS, accepted: READERS, bounced: 0, waiting: 0, skipped: 0 });

  // None missed, none twice; nothing to readers who did not confirm.
  expect(confirmed.map((e) => recorder.accepted.get(e)?.length ?? 0)).toEqual(confirmed.map(() => 1));
  expect(pending.map((e) => recorder.accepted.get(e)?.length ?? 0)).toEqual([0, 0]);
  expect([...recorder.accepted.keys()].sort()).toEqual([...confirmed].sort());
  // The copy the dead server held went again with the same Message-ID.
  expect(recorder.accepted.get(held?.to ?? "")).toEqual([held?.messageId]);
  // Each copy's Message-ID names its newsletter and is its own.
  const ids = [...recorder.accepted.values()].flat();
  expect(new Set(ids).size).toBe(READERS);
  for (const id of ids) expect(id).toContain(`<newsletter-${newsletterId}-`);
}, 180_000);
