// What the Admin Actions tests share (ADR 046): one real server per test file on an embedded
// database on disk (a backup reads its files), an author, an admin and a super admin, and the
// audit rows the actions leave.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { adminAuditLog } from "../db/schema/index.ts";
import type { Currency } from "../shared/enums.ts";
import { apiClient, type Caller } from "./api-client.ts";
import { startTestServer, type TestServer } from "./test-server.ts";
import { createAuthor, createStaff, type TestAuthor, type TestUser } from "./users.ts";

/** The test file's server, its data directory and people, once `startAdminServer()` has run. */
export let s: TestServer;
export let dataDir: string;
export let author: TestAuthor;
export let adminUser: TestUser;
export let superUser: TestUser;
/** Run after the server closes, last added first. */
export const cleanups: (() => Promise<void> | void)[] = [];

/** Starts the server with the three people (and stops it, and cleans up, after the test file). */
export function startAdminServer() {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "bookplate-backup-src-"));
    s = await startTestServer({ DATA_DIR: dataDir }, { embeddedOnDisk: true });
    author = await createAuthor(s, { name: "Ada Writer", tier: "mega" });
    ({ admin: adminUser, superAdmin: superUser } = await createStaff(s));
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    for (const c of cleanups.reverse()) await c();
    rmSync(dataDir, { recursive: true, force: true });
  });
}

/** `caller` sets the exchange rate of `currency` to GBP (a super admin's action; any server). */
export const putRate = (server: TestServer, caller: Caller, currency: Currency, rate: string) =>
  apiClient(server, caller).admin.rates[":currency"].$put({ param: { currency }, json: { rate } });
/** A POST with no body as `cookie`. */
export const post = (path: string, cookie: string) => s.api(path, { method: "POST", cookie });
/** Every audit row's action and detail. */
export const auditActions = async () =>
  await s.database.db.select({ action: adminAuditLog.action, detail: adminAuditLog.detail }).from(adminAuditLog);
