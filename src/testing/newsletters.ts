// What the newsletter tests share: readers put on an author's list as the sign-up form and its
// confirmation link leave them.
import { randomBytes } from "node:crypto";
import { newsletterSubscribers } from "../db/schema/index.ts";
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
