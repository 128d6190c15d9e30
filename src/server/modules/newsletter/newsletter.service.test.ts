// The newsletter service on its own: double opt-in, the confirmation mail and its limits.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsletterSubscribers } from "../../../db/schema/index.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";
import { RateLimiter } from "../../lib/rate-limiter.ts";
import type { Mail } from "../mail/mail.service.ts";
import { confirmNewsletterSubscriber, signUpForNewsletter } from "./newsletter.service.ts";

let s: TestServer;
let author: TestAuthor;
const sent: Mail[] = [];

beforeAll(async () => {
  s = await startTestServer();
  author = await createAuthor(s);
});
afterAll(() => s?.close());

const deps = (signUp = new RateLimiter(10, 60_000), confirmMail = new RateLimiter(3, 60_000)) => ({
  db: s.database.db,
  mailer: { send: async (m: Mail) => void sent.push(m), check: async () => ({ ok: true, detail: "" }), close() {} },
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
    expect(await signUpForNewsletter(deps(), request("Reader@Example.com"))).toEqual({ status: 200 });
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
      status: 400,
      error: "Please enter a valid email address",
    });
    const d = deps(new RateLimiter(1, 60_000));
    expect((await signUpForNewsletter(d, request("a@example.com", "192.0.2.9"))).status).toBe(200);
    expect(await signUpForNewsletter(d, request("b@example.com", "192.0.2.9"))).toEqual({
      status: 429,
      error: "Too many sign-ups. Please try again later.",
    });
  });
});
