// Who a session cookie signs in, kept between requests (signed-in-cache.ts, ADR 093): kept only
// while every change is heard, forgotten on every change whatever makes it, and never kept from a
// read that a change overtook.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { session, user } from "../../../db/schema/index.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createSignedInUser, TEST_PASSWORD, type TestUser } from "../../../testing/users.ts";
import type { CurrentUser } from "./current-user.ts";
import { followSignedIn, SIGNED_IN_CHANNEL, SignedInCache } from "./signed-in-cache.ts";

const someone: CurrentUser = { id: "u1", email: "a@example.com", name: "A", role: "user" };
const later = Date.now() + 86_400_000;

describe("SignedInCache", () => {
  it("keeps nothing until it hears every change, and forgets everything when it stops", () => {
    const cache = new SignedInCache<CurrentUser>();
    cache.keep("t", someone, later, cache.generation, 0);
    expect(cache.get("t", 0)).toBeUndefined();
    cache.hearing(true);
    cache.keep("t", someone, later, cache.generation, 0);
    expect(cache.get("t", 0)?.user).toEqual(someone);
    cache.hearing(false);
    expect(cache.get("t", 0)).toBeUndefined();
    cache.hearing(true);
    expect(cache.get("t", 0)).toBeUndefined();
  });

  it("does not keep what a read found when a change was heard while it ran", () => {
    const cache = new SignedInCache<CurrentUser>();
    cache.hearing(true);
    const began = cache.generation;
    cache.forgetUser("someone else");
    cache.keep("t", someone, later, began, 0);
    expect(cache.get("t", 0)).toBeUndefined();
    cache.keep("t", someone, later, cache.generation, 0);
    expect(cache.get("t", 0)).toBeDefined();
  });

  it("forgets every session of a user at once, and only that user's", () => {
    const cache = new SignedInCache<CurrentUser>();
    cache.hearing(true);
    const other = { ...someone, id: "u2" };
    for (const [token, u] of [
      ["a", someone],
      ["b", someone],
      ["c", other],
    ] as const) {
      cache.keep(token, u, later, cache.generation, 0);
    }
    cache.forgetUser("u1");
    expect([cache.get("a", 0), cache.get("b", 0), cache.get("c", 0)?.user.id]).toEqual([undefined, undefined, "u2"]);
  });

  it("uses an entry for a minute at most, keeps 10,000 at most (the oldest go), and hands out a frozen copy", () => {
    const cache = new SignedInCache<CurrentUser>();
    cache.hearing(true);
    cache.keep("t", someone, later, cache.generation, 1000);
    expect(cache.get("t", 61_000)).toBeDefined();
    expect(cache.get("t", 61_001)).toBeUndefined();
    for (let i = 0; i <= 10_000; i++) cache.keep(`t${i}`, someone, later, cache.generation, 0);
    expect(cache.size).toBe(10_000);
    expect(cache.get("t0", 0)).toBeUndefined();
    const kept = cache.get("t10000", 0)?.user;
    expect(Object.isFrozen(kept)).toBe(true);
    expect(kept).not.toBe(someone);
  });

  it("follows the database's link: nothing used while it is down, everything forgotten when it is back", async () => {
    let told: { onDown?: () => void; onReconnect?: () => void; ownWritesAtOnce?: boolean } = {};
    let hear: (payload: string) => void = () => {};
    let stopped = false;
    const { cache, stop } = await followSignedIn<CurrentUser>({
      listen: async (channel, onPayload, opts = {}) => {
        expect(channel).toBe(SIGNED_IN_CHANNEL);
        hear = onPayload;
        told = opts;
        return async () => {
          stopped = true;
        };
      },
    });
    expect(told.ownWritesAtOnce).toBe(true);
    cache.keep("t", someone, later, cache.generation, 0);
    expect(cache.get("t", 0)).toBeDefined();
    hear("u1");
    expect(cache.get("t", 0)).toBeUndefined();
    cache.keep("t", { ...someone, id: "u2" }, later, cache.generation, 0);
    hear("");
    expect(cache.get("t", 0)).toBeUndefined();
    cache.keep("t", someone, later, cache.generation, 0);
    told.onDown?.();
    cache.keep("u", someone, later, cache.generation, 0);
    expect([cache.get("t", 0), cache.get("u", 0)]).toEqual([undefined, undefined]);
    told.onReconnect?.();
    expect(cache.get("t", 0)).toBeUndefined();
    cache.keep("t", someone, later, cache.generation, 0);
    expect(cache.get("t", 0)).toBeDefined();
    await stop();
    expect(stopped).toBe(true);
    expect(cache.get("t", 0)).toBeUndefined();
  });
});

describe("a signed-in request on a server", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const status = async (u: TestUser) => (await s.api("/api/profile", { cookie: u.cookie })).status;
  const me = (u: TestUser) => s.auth.currentUser(new Headers({ cookie: u.cookie }));
  const tokenOf = (u: TestUser) => {
    const value = decodeURIComponent(/better-auth\.session_token=([^;]+)/.exec(u.cookie)?.[1] ?? "");
    return value.slice(0, value.lastIndexOf("."));
  };

  it("is answered from what was kept, which only the database's notice makes it forget", async () => {
    const u = await createSignedInUser(s, { prefix: "kept" });
    expect(await status(u)).toBe(200);
    // With the session's trigger off, a deleted session is still the kept one: proof that the
    // second request read nothing, and that the trigger is what makes a change count.
    await s.database.db.execute(sql`alter table "session" disable trigger "session_signed_in_changed"`);
    try {
      await s.database.db.delete(session).where(eq(session.token, tokenOf(u)));
      expect(await status(u)).toBe(200);
    } finally {
      await s.database.db.execute(sql`alter table "session" enable trigger "session_signed_in_changed"`);
    }
    // Any change to the user is heard, and the next request reads: the session is gone.
    await s.database.db.update(user).set({ lastActiveAt: new Date() }).where(eq(user.id, u.id));
    expect(await status(u)).toBe(401);
  });

  it("counts a change made by any statement on the very next request: a name, a role, a deleted or expired session", async () => {
    const u = await createSignedInUser(s, { prefix: "changes" });
    expect((await me(u))?.name).toBe(u.name);
    expect((await me(u))?.name).toBe(u.name);
    await s.database.db.update(user).set({ name: "Renamed" }).where(eq(user.id, u.id));
    expect((await me(u))?.name).toBe("Renamed");
    await s.database.db.update(user).set({ role: "admin" }).where(eq(user.id, u.id));
    expect((await me(u))?.role).toBe("admin");
    await s.database.db.update(user).set({ role: "user" }).where(eq(user.id, u.id));
    expect((await me(u))?.role).toBe("user");

    await s.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.token, tokenOf(u)));
    expect(await me(u)).toBeNull();

    const v = await createSignedInUser(s, { prefix: "deleted" });
    expect(await status(v)).toBe(200);
    expect(await status(v)).toBe(200);
    await s.database.db.delete(session).where(eq(session.userId, v.id));
    expect(await status(v)).toBe(401);
  });

  it("signs out every device of an account revoked through Better Auth's own endpoint at once", async () => {
    const u = await createSignedInUser(s, { prefix: "revoke" });
    const other = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: u.email, password: TEST_PASSWORD },
    });
    const second = {
      ...u,
      cookie: /better-auth\.session_token=[^;]+/.exec(other.headers.get("set-cookie") ?? "")?.[0] ?? "",
    };
    expect([await status(u), await status(second)]).toEqual([200, 200]);
    expect([await status(u), await status(second)]).toEqual([200, 200]);
    const revoked = await s.api("/api/auth/revoke-other-sessions", { method: "POST", cookie: u.cookie, json: {} });
    expect(revoked.status).toBe(200);
    expect([await status(u), await status(second)]).toEqual([200, 401]);
  });

  // Last in the file: it signs every account out.
  it("signs everyone out at once when the sessions' table is emptied by TRUNCATE (no row trigger fires)", async () => {
    const u = await createSignedInUser(s, { prefix: "truncated" });
    expect(await status(u)).toBe(200);
    expect(await status(u)).toBe(200);
    await s.database.db.execute(sql`truncate table "session"`);
    expect(await status(u)).toBe(401);
  });
});
