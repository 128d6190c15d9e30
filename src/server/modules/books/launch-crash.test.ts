// A launch survives a bad day (issue 32, ADR 073), as a newsletter does (newsletter-crash.test.ts):
// the real server, as its own process, queues a book's release mails when it starts (the book
// came out yesterday) and is SIGKILLed while the mail server holds the 12th of 30; started again,
// it queues nobody twice and finishes — every confirmed reader gets exactly one mail: none
// missed, none twice, the held one again with the same Message-ID.
// Runs on PGlite (a data directory on disk) and, with DATABASE_URL, on PostgreSQL.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { books, mailOutbox, releaseAlerts } from "../../../db/schema/index.ts";
import { type ServerProcess, startServerProcess } from "../../../testing/faults/server-process.ts";
import { freePort, freshPostgres } from "../../../testing/resources.ts";
import { type SmtpRecorder, startSmtpRecorder } from "../../../testing/smtp-recorder.ts";
import { startTestServer } from "../../../testing/test-server.ts";
import { createAuthor } from "../../../testing/users.ts";

const SECRET = "launch-crash-secret-launch-crash-secret-0123456789";
const READERS = 30;
/** The server dies while the mail server holds this message (1-based), before answering it. */
const KILL_AT = 12;
const SUBJECT = "The Crash-Proof Book is out now";

const dataDir = mkdtempSync(join(tmpdir(), "bookplate-launch-crash-"));
let pg: Awaited<ReturnType<typeof freshPostgres>> | undefined;
let bookId = "";
let confirmed: string[] = [];
let others: string[] = [];
let server: ServerProcess | undefined;
let recorder: SmtpRecorder;

beforeAll(async () => {
  recorder = await startSmtpRecorder(KILL_AT);
  if (process.env.DATABASE_URL) pg = await freshPostgres(process.env.DATABASE_URL);
  // The author, the book and its readers, made in this process on the same data; then it stops.
  const setup = await startTestServer(
    { DATA_DIR: dataDir, AUTH_SECRET: SECRET, ...(pg ? { DATABASE_URL: pg.url } : {}) },
    { embeddedOnDisk: true },
  );
  try {
    const author = await createAuthor(setup, { name: "Crash Author" });
    const made = await setup.api("/api/books", {
      method: "POST",
      cookie: author.cookie,
      json: { title: "The Crash-Proof Book", author: "Crash Author", releaseDate: "2031-01-01" },
    });
    expect(made.status).toBe(201);
    bookId = ((await made.json()) as { book: { id: string } }).book.id;
    const reader = (i: number, status: string) => `launch-${i}-${status}@example.com`;
    confirmed = Array.from({ length: READERS }, (_, i) => reader(i, "confirmed"));
    others = [reader(0, "pending"), reader(1, "unsubscribed")];
    await setup.database.db.insert(releaseAlerts).values(
      [...confirmed, ...others].map((email) => ({
        userId: author.id,
        bookId,
        email,
        status: email.includes("-confirmed") ? "confirmed" : email.includes("-pending") ? "pending" : "unsubscribed",
        confirmToken: randomBytes(18).toString("base64url"),
      })),
    );
    // Out since yesterday: the server's launch job, which also runs when it starts, finds it due.
    const yesterday = new Date(Date.now() - 24 * 60 * 60_000).toISOString().slice(0, 10);
    await setup.database.db.update(books).set({ releaseDate: yesterday }).where(eq(books.id, bookId));
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

const start = (port: number) =>
  startServerProcess({
    port,
    dataDir,
    databaseUrl: pg?.url,
    smtpUrl: recorder.url,
    env: {
      AUTH_SECRET: SECRET,
      NEWSLETTER_SEND_RATE: "50",
      // A mail whose process died goes again after this: kept short so the test does not wait.
      MAIL_LEASE_SECONDS: "3",
    },
  });

const acceptedCount = () => [...recorder.accepted.values()].flat().length;

it("is killed mid-send, restarted, and every confirmed reader has exactly one mail", async () => {
  const port = await freePort();
  server = await start(port);
  const first = server;
  recorder.whenNth(async () => {
    await first.kill("SIGKILL");
  });
  expect(await first.exited).toBe("SIGKILL");
  // Died with mails to go: the one it held, and those after it.
  expect(recorder.received).toHaveLength(KILL_AT);
  const held = recorder.received[KILL_AT - 1];
  expect(acceptedCount()).toBe(KILL_AT - 1);

  // Started again: its launch job runs again at once and must add nobody.
  server = await start(port);
  const deadline = Date.now() + 60_000;
  while (new Set(recorder.accepted.keys()).size < READERS) {
    if (Date.now() > deadline) throw new Error(`the launch did not finish: ${acceptedCount()} accepted`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // Longer than a lease and a poll: a mail sent twice would have come by now.
  await new Promise((r) => setTimeout(r, 6_000));
  await server.kill("SIGTERM");

  // None missed, none twice; nothing to readers who did not confirm or left.
  expect(confirmed.map((e) => recorder.accepted.get(e)?.length ?? 0)).toEqual(confirmed.map(() => 1));
  expect(others.map((e) => recorder.accepted.get(e)?.length ?? 0)).toEqual([0, 0]);
  expect([...recorder.accepted.keys()].sort()).toEqual([...confirmed].sort());
  // The mail the dead server held went again with the same Message-ID.
  expect(recorder.accepted.get(held?.to ?? "")).toEqual([held?.messageId]);
  const ids = [...recorder.accepted.values()].flat();
  expect(new Set(ids).size).toBe(READERS);
  for (const id of ids) expect(id).toMatch(/^<launch-[0-9a-f-]{36}@/);

  // What the outbox says: one row per reader, every one sent, all of the readers told.
  const after = await startTestServer(
    { DATA_DIR: dataDir, AUTH_SECRET: SECRET, ...(pg ? { DATABASE_URL: pg.url } : {}) },
    { embeddedOnDisk: true },
  );
  try {
    const rows = await after.database.db
      .select({ status: mailOutbox.status, subject: mailOutbox.subject })
      .from(mailOutbox)
      .innerJoin(releaseAlerts, eq(releaseAlerts.id, mailOutbox.releaseAlertId))
      .where(eq(releaseAlerts.bookId, bookId));
    expect(rows).toHaveLength(READERS);
    expect(rows.every((r) => r.status === "sent" && r.subject === SUBJECT)).toBe(true);
  } finally {
    await after.close();
  }
}, 180_000);
