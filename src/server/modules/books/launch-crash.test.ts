// A launch survives a bad day (issue 32, ADR 073), as a newsletter does (newsletter-crash.test.ts):
// the real server, as its own process, queues a book's release mails when it starts (the book
// came out yesterday) and is SIGKILLed while the mail server holds the 12th of 30; started again,
// it queues nobody twice and finishes — every confirmed reader gets exactly one mail: none
// missed, none twice, the held one again with the same Message-ID.
// Runs on PGlite (a data directory on disk) and, with DATABASE_URL, on PostgreSQL.

import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { books, mailOutbox, releaseAlerts } from "../../../db/schema/index.ts";
import { crash, crashReaders, expectEachOnce, startCrashHarness } from "../../../testing/crash-harness.ts";
import { createAuthor } from "../../../testing/users.ts";

const READERS = 30;
/** The server dies while the mail server holds this message (1-based), before answering it. */
const KILL_AT = 12;
const SUBJECT = "The Crash-Proof Book is out now";

const readers = crashReaders("launch", READERS);
let bookId = "";

// The author, the book and its readers, made in this process on the same data; then it stops.
startCrashHarness(
  { name: "launch-crash", secret: "launch-crash-secret-launch-crash-secret-0123456789", killAt: KILL_AT },
  async (setup) => {
    const author = await createAuthor(setup, { name: "Crash Author" });
    const made = await setup.api("/api/books", {
      method: "POST",
      cookie: author.cookie,
      json: { title: "The Crash-Proof Book", author: "Crash Author", releaseDate: "2031-01-01" },
    });
    expect(made.status).toBe(201);
    bookId = ((await made.json()) as { book: { id: string } }).book.id;
    await setup.database.db
      .insert(releaseAlerts)
      .values(readers.rows.map((row) => ({ ...row, userId: author.id, bookId })));
    // Out since yesterday: the server's launch job, which also runs when it starts, finds it due.
    const yesterday = new Date(Date.now() - 24 * 60 * 60_000).toISOString().slice(0, 10);
    await setup.database.db.update(books).set({ releaseDate: yesterday }).where(eq(books.id, bookId));
  },
);

const acceptedCount = () => [...crash.recorder.accepted.values()].flat().length;

it("is killed mid-send, restarted, and every confirmed reader has exactly one mail", async () => {
  // Starting is enough: its launch job finds the book due and sends.
  const held = await crash.killedMidSend();

  // Started again: its launch job runs again at once and must add nobody.
  const server = await crash.restart();
  const deadline = Date.now() + 60_000;
  while (new Set(crash.recorder.accepted.keys()).size < READERS) {
    if (Date.now() > deadline) throw new Error(`the launch did not finish: ${acceptedCount()} accepted`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // Longer than a lease and a poll: a mail sent twice would have come by now.
  await new Promise((r) => setTimeout(r, 6_000));
  await server.kill("SIGTERM");

  // None missed, none twice; nothing to readers who did not confirm or left; the held one again.
  const ids = expectEachOnce(readers, held);
  for (const id of ids) expect(id).toMatch(/^<launch-[0-9a-f-]{36}@/);

  // What the outbox says: one row per reader, every one sent, all of the readers told.
  await crash.inProcess(async (after) => {
    const rows = await after.database.db
      .select({ status: mailOutbox.status, subject: mailOutbox.subject })
      .from(mailOutbox)
      .innerJoin(releaseAlerts, eq(releaseAlerts.id, mailOutbox.releaseAlertId))
      .where(eq(releaseAlerts.bookId, bookId));
    expect(rows).toHaveLength(READERS);
    expect(rows.every((r) => r.status === "sent" && r.subject === SUBJECT)).toBe(true);
  });
}, 180_000);
