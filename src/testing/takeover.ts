// What the escalation tests share (issue 29's takeover): a server with a super admin, an admin
// and an author with a picture on disk, and every row that says who someone is, what they may do
// and how they sign in, to compare before and after each attempt.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, count } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { account, adminAuditLog, session, twoFactor, user, verification } from "../db/schema/index.ts";
import { filesUnder, pngForm } from "./files.ts";
import { startTestServer, type TestServer } from "./test-server.ts";
import { createAuthor, createStaff, type TestAuthor, type TestUser } from "./users.ts";

/** The test file's server and people, once `startTakeoverServer()` has started them. */
export let s: TestServer;
export let superUser: TestUser;
export let adminUser: TestUser;
export let author: TestAuthor;
const dataDir = mkdtempSync(join(tmpdir(), "bookplate-escalation-"));

export const ATTACKER_PASSWORD = "attacker-chosen-password";

/** Starts the server with the three people (and stops it after the test file). */
export function startTakeoverServer() {
  beforeAll(async () => {
    s = await startTestServer({ DATA_DIR: dataDir });
    ({ admin: adminUser, superAdmin: superUser } = await createStaff(s));
    author = await createAuthor(s, { name: "Ada Target" });
    // A picture on disk, so a deletion that forgot the files would show.
    const form = await pngForm(300, 300, "#c33", "me.png");
    const up = await s.api("/api/profile/photo", { method: "POST", cookie: author.cookie, body: form });
    expect(up.status).toBeLessThan(300);
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
}

/** The author's files under the uploads directory. */
export const uploadsOf = (id: string) => filesUnder(join(dataDir, "uploads")).filter((f) => f.split("/")[1] === id);

/** Every row that says who someone is, what they may do and how they sign in. */
export async function accountState() {
  const db = s.database.db;
  return {
    users: await db.select().from(user).orderBy(asc(user.id)),
    sessions: await db.select().from(session).orderBy(asc(session.id)),
    accounts: await db.select().from(account).orderBy(asc(account.id)),
    twoFactors: await db.select().from(twoFactor).orderBy(asc(twoFactor.id)),
    verifications: await db.select().from(verification).orderBy(asc(verification.id)),
    auditRows: (await db.select({ n: count() }).from(adminAuditLog))[0]?.n,
  };
}
