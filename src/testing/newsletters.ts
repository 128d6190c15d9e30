// What the newsletter tests share: readers put on an author's list as the sign-up form and its
// confirmation link leave them, a draft written and sent through the API, and the newsletter job
// run on a test server.
import { randomBytes } from "node:crypto";
import { newsletterSubscribers } from "../db/schema/index.ts";
import { type NewsletterDeps, runNewsletterJob } from "../server/modules/newsletter/newsletters.service.ts";
import { apiClient, type Caller, type Client, expectStatus, type JsonBody, readJson } from "./api-client.ts";
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

/** What a new newsletter takes: `draftOn(s, a, { subject, content })`. */
export type NewsletterBody = JsonBody<Client["newsletters"]["$post"]>;

/** A draft written by `who` through the API (the test fails unless it is made). */
export async function draftOn(s: TestServer, who: Caller, json: NewsletterBody) {
  return (await expectStatus(apiClient(s, who).newsletters.$post({ json }), 201)).newsletter;
}

/** When to send a newsletter: `{}` now, `{ at }` at a time to come. */
export type SendBody = JsonBody<Client["newsletters"][":id"]["send"]["$post"]>;

/** A newsletter sent by `who` now or at a time to come: the answer's status and body. */
export const sendOn = (s: TestServer, who: Caller, id: string, json: SendBody = {}) =>
  readJson(apiClient(s, who).newsletters[":id"].send.$post({ param: { id }, json }));
