// The newsletter service on its own: double opt-in, the confirmation mail and its limits.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newsletterSubscribers } from "../../../db/schema/index.ts";
import { author, s, startFileServerWithAuthor } from "../../../testing/file-server.ts";
import { mailRecorder } from "../../../testing/mail-recorder.ts";
import { RateLimiter } from "../../lib/rate-limiter.ts";
import { confirmNewsletterSubscriber, signUpForNewsletter } from "./newsletter.service.ts";

startFileServerWithAuthor();
const mailer = mailRecorder();
const { sent } = mailer;

const deps = (signUp = new RateLimiter(10, 60_000), confirmMail = new RateLimiter(3, 60_000)) => ({
  db: s.database.db,
  mailer,
  logger: s.logger,
  limits: { signUp, confirmMail },
});
const request = (email: string, clientAddress = "192.0.2.1") => ({
  userId: author.id,
  clientAddress,
  fields: { email },
  confirmUrl: (token: string) => `https://ann.example/newsletter/confirm?token=${token}`,
});
const statusOf = async (email: string) =>
  (
    await s.database.db
      .select({ status: newsletterSubscribers.status })
      .from(newsletterSubscribers)
      .where(and(eq(newsletterSubscribers.userId, author.id), eq(newsletterSubscribers.email, email)))
  )[0]?.status;

describe("signUpForNewsletter", () => {
  it("stores a pending subscriber, mails the link, and the link confirms", async () => {
    expect(await signUpForNewsletter(deps(), request("Reader@Example.com"))).toEqual({ ok: true });
    expect(await statusOf("reader@example.com")).toBe("pending");
    const mail = sent.at(-1);
    expect(mail?.to).toBe("reader@example.com");
    expect(mail?.subject).toBe("Please confirm your newsletter subscription at ann.example");
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1] ?? "";
    expect(await confirmNewsletterSubscriber(s.database.db, author.id, token)).toBe(true);
    expect(await statusOf("reader@example.com")).toBe("confirmed");
    expect(await confirmNewsletterSubscriber(s.database.db, author.id, "not-a-token")).toBe(false);
  });

  it("refuses a bad address and a client past the limit", async () => {
    expect(await signUpForNewsletter(deps(), request("nope"))).toEqual({
      ok: false,
      code: "validation_failed",
      error: "Please enter a valid email address",
    });
    const d = deps(new RateLimiter(1, 60_000));
    expect((await signUpForNewsletter(d, request("a@example.com", "192.0.2.9"))).ok).toBe(true);
    expect(await signUpForNewsletter(d, request("b@example.com", "192.0.2.9"))).toEqual({
      ok: false,
      code: "rate_limited",
      error: "Too many sign-ups. Please try again later.",
    });
  });
});
