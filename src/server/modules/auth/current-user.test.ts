// The signed-in user of an API request, read the short way (current-user.ts, ADR 072): what it
// keeps between requests is forgotten on every change (ADR 093), so every change to who may do
// what counts on the very next request, and Better Auth still does its own work on sessions that
// are expired or due for a refresh.
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRole } from "../../../app/cli/admin.ts";
import { session, user } from "../../../db/schema/index.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createSignedInUser, createStaff, type TestUser } from "../../../testing/users.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const DAY = 86_400_000;
const status = async (cookie: string, path = "/api/profile") => (await s.api(path, { cookie })).status;
const tokenOf = (u: TestUser) => {
  const value = decodeURIComponent(/better-auth\.session_token=([^;]+)/.exec(u.cookie)?.[1] ?? "");
  return value.slice(0, value.lastIndexOf("."));
};
const sessionRow = async (u: TestUser) =>
  (
    await s.database.db
      .select()
      .from(session)
      .where(eq(session.token, tokenOf(u)))
  )[0];
const signed = async (token: string) => {
  const { secret } = await s.auth.$context;
  const signature = createHmac("sha256", secret).update(token).digest("base64");
  return `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
};

describe("the signed-in user of a request", () => {
  it("follows a role given and taken back on the very next request", async () => {
    const u = await createSignedInUser(s, { prefix: "role" });
    expect(await status(u.cookie, "/api/admin/overview")).toBe(403);
    await setRole(s.database.db, u.email, "admin");
    expect(await status(u.cookie, "/api/admin/overview")).toBe(200);
    await setRole(s.database.db, u.email, "user");
    expect(await status(u.cookie, "/api/admin/overview")).toBe(403);
  });

  it("is signed out at once by a sign-out and by a ban, and stays out after an unban", async () => {
    const { admin } = await createStaff(s, "cu");
    const u = await createSignedInUser(s, { prefix: "banned" });
    const other = await createSignedInUser(s, { prefix: "leaver" });
    expect(await status(other.cookie)).toBe(200);
    expect((await s.api("/api/auth/sign-out", { method: "POST", cookie: other.cookie, json: {} })).status).toBe(200);
    expect(await status(other.cookie)).toBe(401);

    expect(await status(u.cookie)).toBe(200);
    const ban = (banned: boolean) =>
      s.api(`/api/admin/users/${u.id}/ban`, { method: "POST", cookie: admin.cookie, json: { banned } });
    expect((await ban(true)).status).toBe(200);
    expect(await status(u.cookie)).toBe(401);
    expect((await ban(false)).status).toBe(200);
    expect(await status(u.cookie)).toBe(401);
  });

  it("refuses a cookie whose signature is wrong, and a well-signed one naming no session", async () => {
    const u = await createSignedInUser(s, { prefix: "forged" });
    const real = tokenOf(u);
    const wrong = `better-auth.session_token=${encodeURIComponent(`${real}.${"A".repeat(43)}=`)}`;
    expect(await status(wrong)).toBe(401);
    expect(await status(`better-auth.session_token=${encodeURIComponent(real)}`)).toBe(401);
    expect(await status(await signed("no-such-session-token-000000000"))).toBe(401);
    expect(await status(await signed(real))).toBe(200);
    // The same cookie twice is left to Better Auth, which reads the first.
    expect(await status(`${wrong}; ${await signed(real)}`)).toBe(401);
  });

  it("leaves an expired session to Better Auth, which ends it", async () => {
    const u = await createSignedInUser(s, { prefix: "expired" });
    await s.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.token, tokenOf(u)));
    expect(await status(u.cookie)).toBe(401);
    expect(await sessionRow(u)).toBeUndefined();
  });

  it("leaves a session due for its daily refresh to Better Auth, which extends it and stamps the activity", async () => {
    const u = await createSignedInUser(s, { prefix: "refresh" });
    const stale = new Date(Date.now() + 28 * DAY);
    await s.database.db
      .update(session)
      .set({ expiresAt: stale })
      .where(eq(session.token, tokenOf(u)));
    await s.database.db.update(user).set({ lastActiveAt: null }).where(eq(user.id, u.id));
    expect(await status(u.cookie)).toBe(200);
    expect((await sessionRow(u))?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY);
    const [row] = await s.database.db.select({ at: user.lastActiveAt }).from(user).where(eq(user.id, u.id));
    expect(row?.at).toBeInstanceOf(Date);
  });
});
