// Issue 29's takeover through Better Auth's server-side API: the admin plugin's powers, which only
// a super admin may use, and only for what our rules allow; and account deletion, which has one
// way in. The same powers asked for over HTTP are in escalation.test.ts.
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { user } from "../../../db/schema/index.ts";
import { filesUnder } from "../../../testing/files.ts";
import {
  ATTACKER_PASSWORD,
  accountState,
  adminUser,
  author,
  s,
  startTakeoverServer,
  superUser,
  uploadsOf,
} from "../../../testing/takeover.ts";

startTakeoverServer();

describe("through the plugin's server-side API", () => {
  const asHeaders = (cookie: string) => new Headers({ cookie });

  /** Each call the way our own server code could make it, with the caller's session. */
  function powers(actorId: string) {
    const api = s.auth.api;
    return {
      setRole: (h: Headers) => api.setRole({ headers: h, body: { userId: actorId, role: "super_admin" as "admin" } }),
      setUserPassword: (h: Headers) =>
        api.setUserPassword({ headers: h, body: { userId: superUser.id, newPassword: ATTACKER_PASSWORD } }),
      banUser: (h: Headers) => api.banUser({ headers: h, body: { userId: superUser.id } }),
      impersonateUser: (h: Headers) => api.impersonateUser({ headers: h, body: { userId: author.id } }),
      createUser: (h: Headers) =>
        api.createUser({
          headers: h,
          body: { email: "boss3@example.com", password: ATTACKER_PASSWORD, name: "B", role: "super_admin" as "admin" },
        }),
      removeUser: (h: Headers) => api.removeUser({ headers: h, body: { userId: author.id } }),
      adminUpdateUser: (h: Headers) =>
        api.adminUpdateUser({ headers: h, body: { userId: author.id, data: { email: "x@example.com" } } }),
      listUsers: (h: Headers) => api.listUsers({ headers: h, query: {} }),
    };
  }

  it("gives an admin none of the plugin's powers", async () => {
    const before = await accountState();
    for (const [name, call] of Object.entries(powers(adminUser.id))) {
      await expect(call(asHeaders(adminUser.cookie)), name).rejects.toMatchObject({ statusCode: 403 });
    }
    expect(await accountState()).toEqual(before);
  });

  it("gives a super admin no power our rules do not give: no passwords, impersonation, new or removed accounts", async () => {
    const before = await accountState();
    const all = powers(superUser.id);
    for (const name of ["setUserPassword", "impersonateUser", "createUser", "removeUser", "adminUpdateUser"] as const) {
      await expect(all[name](asHeaders(superUser.cookie)), name).rejects.toMatchObject({ statusCode: 403 });
    }
    expect(await accountState()).toEqual(before);
    expect(uploadsOf(author.id).length).toBeGreaterThan(0);
    // What our rules do let a super admin do, the plugin allows too (so the roles really differ).
    const listed = await all.listUsers(asHeaders(superUser.cookie));
    expect(listed.users.map((u) => u.id)).toEqual(expect.arrayContaining([author.id, adminUser.id]));
  });

  it("gives an author nothing", async () => {
    for (const [name, call] of Object.entries(powers(author.id))) {
      await expect(call(asHeaders(author.cookie)), name).rejects.toMatchObject({ statusCode: 403 });
    }
    const [row] = await s.database.db.select().from(user).where(eq(user.id, author.id));
    expect(row?.role).toBe("user");
  });
});

describe("deleting an account", () => {
  it("has one way in, the account service, which removes the files with the rows", () => {
    // Better Auth's delete-user and the plugin's remove-user are closed above; any other code
    // that deleted a user row would leave its uploads behind, so there is none.
    const deletesUsers = /\.delete\(\s*user\s*\)|delete\s+from\s+"?user"?[\s;]|\.(deleteUser|removeUser)\(/i;
    const sources = ["src/server", "src/db", "src/sites", "src/marketing"]
      .flatMap((dir) => filesUnder(dir).map((f) => `${dir}/${f}`))
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.includes("/testing/"));
    expect(sources.length).toBeGreaterThan(50);
    const deleting = sources.filter((f) => deletesUsers.test(readFileSync(f, "utf8")));
    expect(deleting).toEqual(["src/server/modules/account/account.queries.ts"]);
    const callers = sources.filter((f) => /\bdeleteAccountRows\(/.test(readFileSync(f, "utf8")));
    expect(callers.sort()).toEqual([
      "src/server/modules/account/account.queries.ts",
      "src/server/modules/account/account.service.ts",
    ]);
  });

  it("is off in Better Auth itself, even for the server's own calls", async () => {
    await expect(
      s.auth.api.deleteUser({ headers: new Headers({ cookie: author.cookie }), body: {} }),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
    const [row] = await s.database.db.select().from(user).where(eq(user.id, author.id));
    expect(row?.id).toBe(author.id);
    expect(uploadsOf(author.id).length).toBeGreaterThan(0);
  });
});
