// The contact service on its own: what it keeps, what it mails and when it refuses.
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactMessages } from "../../../db/schema/index.ts";
import { author, s, startFileServerWithAuthor } from "../../../testing/file-server.ts";
import { mailRecorder } from "../../../testing/mail-recorder.ts";
import { RateLimiter } from "../../lib/rate-limiter.ts";
import { receiveContactMessage } from "./contact.service.ts";

startFileServerWithAuthor();
const mailer = mailRecorder();
const { sent } = mailer;

const deps = (limiter = new RateLimiter(5, 60_000)) => ({
  db: s.database.db,
  mailer,
  logger: s.logger,
  limiter,
});
const fields = { name: "Ann", email: "ann@example.com", subject: "Hello", message: "A kind word." };
const stored = async () =>
  (await s.database.db.select({ n: count() }).from(contactMessages).where(eq(contactMessages.userId, author.id)))[0]
    ?.n ?? 0;

describe("receiveContactMessage", () => {
  it("keeps the message and mails it to the author's verified address", async () => {
    const out = await receiveContactMessage(deps(), {
      userId: author.id,
      antispam: true,
      clientAddress: "192.0.2.1",
      fields,
    });
    expect(out).toEqual({ ok: true });
    expect(await stored()).toBe(1);
    expect(sent.at(-1)?.subject).toBe("New message from your website: Hello");
    expect(sent.at(-1)?.text).toBe("From: Ann <ann@example.com>\nSubject: Hello\n\nA kind word.\n");
  });

  it("answers a filled honeypot as sent and keeps nothing", async () => {
    const before = await stored();
    const out = await receiveContactMessage(deps(), {
      userId: author.id,
      antispam: true,
      clientAddress: "192.0.2.2",
      fields: { ...fields, website: "spam.example" },
    });
    expect(out).toEqual({ ok: true });
    expect(await stored()).toBe(before);
  });

  it("refuses a form without a message, and a sender past the limit", async () => {
    const bad = await receiveContactMessage(deps(), {
      userId: author.id,
      antispam: true,
      clientAddress: "192.0.2.3",
      fields: { ...fields, message: " " },
    });
    expect(bad).toEqual({ ok: false, code: "validation_failed", error: "Message is required" });
    const limiter = new RateLimiter(1, 60_000);
    const r = { userId: author.id, antispam: true, clientAddress: "192.0.2.4", fields };
    expect((await receiveContactMessage(deps(limiter), r)).ok).toBe(true);
    expect(await receiveContactMessage(deps(limiter), r)).toEqual({
      ok: false,
      code: "rate_limited",
      error: "Too many messages. Please try again later.",
    });
  });
});
