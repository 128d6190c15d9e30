// A newsletter survives a bad day (issue 32, ADR 066): the real server, as its own process, is
// SIGKILLed in the middle of sending one, started again, and finishes it — every confirmed reader
// gets exactly one copy: none missed, none twice. The mail server is a real SMTP server in this
// process that records what it accepted for each address; it kills the server deterministically
// while the Nth message is in its hands, before it answers 250 (the copy was not accepted, so
// the restarted server must send it again, with the same Message-ID).
// Runs on PGlite (a data directory on disk) and, with DATABASE_URL, on PostgreSQL.

import { expect, it } from "vitest";
import { newsletterSubscribers } from "../../../db/schema/index.ts";
import { crash, crashReaders, expectEachOnce, startCrashHarness } from "../../../testing/crash-harness.ts";
import { createAuthor } from "../../../testing/users.ts";

const READERS = 30;
/** The server dies while the mail server holds this message (1-based), before answering it. */
const KILL_AT = 12;

const readers = crashReaders("reader", READERS);
let cookie = "";
let newsletterId = "";

// The author, their readers and the draft, made in this process on the same data; then it stops.
startCrashHarness(
  { name: "newsletter-crash", secret: "newsletter-crash-secret-newsletter-crash-secret-0123", killAt: KILL_AT },
  async (setup) => {
    const author = await createAuthor(setup);
    cookie = author.cookie;
    await setup.database.db
      .insert(newsletterSubscribers)
      .values(readers.rows.map((row) => ({ ...row, userId: author.id })));
    const made = await setup.api("/api/newsletters", {
      method: "POST",
      cookie,
      json: { subject: "The crash-proof newsletter", content: "<p>Every reader once.</p>" },
    });
    expect(made.status).toBe(201);
    newsletterId = ((await made.json()) as { newsletter: { id: string } }).newsletter.id;
  },
);

const api = (path: string, init: RequestInit = {}) =>
  fetch(`http://localhost:${crash.port}${path}`, {
    ...init,
    headers: {
      origin: `http://localhost:${crash.port}`,
      cookie,
      "content-type": "application/json",
      ...init.headers,
    },
  });

it("is killed mid-send, restarted, and every confirmed reader has exactly one copy", async () => {
  const held = await crash.killedMidSend(async () => {
    const sent = await api(`/api/newsletters/${newsletterId}/send`, { method: "POST", body: "{}" });
    expect(sent.status).toBe(200);
  });

  await crash.restart();
  const deadline = Date.now() + 60_000;
  let figures: Record<string, number> = {};
  for (;;) {
    const res = await api(`/api/newsletters/${newsletterId}/figures`);
    figures = (await res.json()) as Record<string, number>;
    if (figures.waiting === 0 && figures.sent === READERS) break;
    if (Date.now() > deadline) throw new Error(`the send did not finish: ${JSON.stringify(figures)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(figures).toMatchObject({ sent: READERS, accepted: READERS, bounced: 0, waiting: 0, skipped: 0 });

  // None missed, none twice; nothing to readers who did not confirm; the held copy again, same ID.
  const ids = expectEachOnce(readers, held);
  // Each copy's Message-ID names its newsletter and is its own.
  for (const id of ids) expect(id).toContain(`<newsletter-${newsletterId}-`);
}, 180_000);
