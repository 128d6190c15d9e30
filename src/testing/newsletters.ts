// What the newsletter tests share: readers put on an author's list as the sign-up form and its
// confirmation link leave them, and the newsletter job run on a test server.
import { randomBytes } from "node:crypto";
import { newsletterSubscribers } from "../db/schema/index.ts";
import { type NewsletterDeps, runNewsletterJob } from "../server/modules/newsletter/newsletters.service.ts";
import type { TestServer } from "./test-server.ts";
import type { TestAuthor } from "./users.ts";

let seq = 0;
/** `n` readers on the author's list in `status`; returns their addresses. */
export async function addReaders(s: TestServer, a: TestAuthor, n: number, status = "confirmed"): Promise<string[]> {
  const emails = Array.from({ length: n }, () => `reader-${status}-${seq++}-${a.subdomain}@example.com`);
  await s.database.db.insert(newsletterSubscribers).values(
    emails.map((email) => ({
      userId: a.id,
      email,
      status,
      confirmToken: randomBytes(18).toString("base64url"),
      confirmedAt: status === "confirmed" ? new Date() : null,
    })),
  );
  return emails;
}

/** What the newsletter job needs on a test server: its database, mailer and logger, sites on localhost. */
export const newsletterJobDeps = (s: TestServer, dailyCap = 100): NewsletterDeps => ({
  db: s.database.db,
  mailer: s.mailer,
  logger: s.logger,
  site: { protocol: "http:", sitesDomain: "localhost" },
  dailyCap,
});

/** Runs the newsletter job once on a test server (as its schedule would). */
export const runNewsletterJobOn = (s: TestServer, dailyCap = 100) => runNewsletterJob(newsletterJobDeps(s, dailyCap));
