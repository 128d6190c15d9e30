// Issue 29's takeover, replayed: Better Auth's admin plugin endpoints (and every other endpoint it
// mounts that no screen uses) asked for over HTTP by an admin, an author and nobody, under every
// spelling of the path — each refused with our 404, and the account, session and password rows
// read back from the database unchanged. Then the same powers asked for through the plugin's
// server-side API, which only a super admin may use, and only for what our rules allow.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, adminAuditLog, session, twoFactor, user, verification } from "../../../db/schema/index.ts";
import { filesUnder } from "../../../testing/files.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import {
  createAuthor,
  createStaffUser,
  TEST_PASSWORD,
  type TestAuthor,
  type TestUser,
} from "../../../testing/users.ts";
import { AUTH_BASE, REACHABLE_AUTH_ENDPOINTS, reachableAuthEndpoint } from "./auth-endpoints.ts";

let s: TestServer;
let superUser: TestUser;
let adminUser: TestUser;
let author: TestAuthor;
const dataDir = mkdtempSync(join(tmpdir(), "bookplate-escalation-"));

const ATTACKER_PASSWORD = "attacker-chosen-password";

beforeAll(async () => {
  s = await startTestServer({ DATA_DIR: dataDir });
  superUser = await createStaffUser(s, "super_admin", { prefix: "boss" });
  adminUser = await createStaffUser(s, "admin", { prefix: "staff" });
  author = await createAuthor(s, { name: "Ada Target" });
  // A picture on disk, so a deletion that forgot the files would show.
  const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#c33" } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "me.png");
  const up = await s.api("/api/profile/photo", { method: "POST", cookie: author.cookie, body: form });
  expect(up.status).toBeLessThan(300);
});
afterAll(async () => {
  await s?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const uploadsOf = (id: string) => filesUnder(join(dataDir, "uploads")).filter((f) => f.split("/")[1] === id);

/** Every row that says who someone is, what they may do and how they sign in. */
async function accountState() {
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

type Answer = { status: number; body: string; setCookie: string[] };

/** A request with the path exactly as written (fetch would resolve `..` and may re-encode escapes). */
function raw(method: string, path: string, opts: { cookie?: string; json?: unknown } = {}): Promise<Answer> {
  const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  const headers: Record<string, string> = { host: new URL(s.url).host, origin: s.url };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: s.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        text += d;
      });
      res.on("end", () => {
        const sc = res.headers["set-cookie"];
        resolve({ status: res.statusCode ?? 0, body: text, setCookie: Array.isArray(sc) ? sc : sc ? [sc] : [] });
      });
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

type Endpoint = { key: string; path: string; methods: string[] };

/** What Better Auth mounts in our configuration, read from the instance the app runs. */
function mountedEndpoints(): Endpoint[] {
  const out: Endpoint[] = [];
  for (const [key, e] of Object.entries(s.auth.api as Record<string, unknown>)) {
    const ep = e as { path?: unknown; options?: { method?: unknown; metadata?: { SERVER_ONLY?: boolean } } };
    if (typeof ep.path !== "string" || ep.options?.metadata?.SERVER_ONLY) continue;
    const m = ep.options?.method;
    const methods = Array.isArray(m) ? m.map(String) : typeof m === "string" ? [m] : ["GET", "POST"];
    out.push({ key, path: ep.path, methods: methods.includes("*") ? ["GET", "POST"] : methods });
  }
  return out;
}

/** A path parameter filled in (`/callback/:id` → `/callback/google`). */
const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, "abcdefghijklmnop");

/** Bodies that would do real harm if Better Auth ever got them. */
function harmfulBody(key: string, actorId: string): unknown {
  const bodies: Record<string, unknown> = {
    setRole: { userId: actorId, role: "super_admin" },
    setUserPassword: { userId: superUser.id, newPassword: ATTACKER_PASSWORD },
    banUser: { userId: superUser.id, banReason: "taken over" },
    unbanUser: { userId: author.id },
    impersonateUser: { userId: author.id },
    stopImpersonating: {},
    createUser: { email: "made-up-boss@example.com", password: ATTACKER_PASSWORD, name: "Boss", role: "super_admin" },
    removeUser: { userId: author.id },
    adminUpdateUser: { userId: actorId, data: { role: "super_admin", email: "x@example.com" } },
    listUserSessions: { userId: author.id },
    revokeUserSession: { sessionToken: "x" },
    revokeUserSessions: { userId: superUser.id },
    userHasPermission: { permissions: { user: ["set-role"] } },
    updateUser: { name: "Renamed" },
    deleteUser: {},
    changeEmail: { newEmail: "stolen@example.com" },
    updateSession: {},
    verifyPassword: { password: TEST_PASSWORD },
    signInSocial: { provider: "google" },
    linkSocialAccount: { provider: "google" },
    unlinkAccount: { providerId: "credential" },
    getTOTPURI: { password: TEST_PASSWORD },
    sendTwoFactorOTP: {},
    verifyTwoFactorOTP: { code: "123456" },
  };
  return bodies[key] ?? {};
}

/** The path spelled every way a router might fold back to the real one. */
function variants(path: string): string[] {
  const [first = "", ...rest] = path.slice(1).split("/");
  const tail = rest.join("/");
  const upper = path.toUpperCase();
  return [
    `${AUTH_BASE}${path}`,
    `${AUTH_BASE}${path}/`,
    `${AUTH_BASE}/${path}`,
    `${AUTH_BASE}${path.replace("/", "//")}`,
    `${AUTH_BASE}/${first}//${tail}`,
    `${AUTH_BASE}${upper}`,
    `/api/AUTH${path}`,
    `/API/auth${path}`,
    `${AUTH_BASE}/${encodeURIComponent(`${first}/${tail}`)}`,
    `${AUTH_BASE}/%${first.charCodeAt(0).toString(16)}${first.slice(1)}/${tail}`,
    `${AUTH_BASE}/x/..${path}`,
    `${AUTH_BASE}/.${path}`,
    `${AUTH_BASE}${path};x`,
    `${AUTH_BASE}${path}?x=1`,
    `${AUTH_BASE}${path}%20`,
  ];
}

const PEOPLE = () =>
  [
    { who: "an admin", cookie: adminUser.cookie, id: adminUser.id },
    { who: "an author", cookie: author.cookie, id: author.id },
    { who: "nobody", cookie: undefined, id: author.id },
  ] as const;

function expectRefused(label: string, res: Answer) {
  expect([label, res.status]).toEqual([label, 404]);
  expect([label, res.setCookie]).toEqual([label, []]);
  if (label.includes(" /api/")) {
    expect([label, res.body.slice(0, 80)]).toEqual([label, expect.stringMatching(/^\{/)]);
    expect([label, JSON.parse(res.body)]).toEqual([label, { error: { code: "not_found", message: "Not found" } }]);
  }
}

describe("the allow-list", () => {
  it("names only endpoints Better Auth really mounts", () => {
    const mounted = new Set(
      mountedEndpoints().flatMap((e) => e.methods.map((m) => `${m} ${e.path.replace(/:[A-Za-z]+/g, "{token}")}`)),
    );
    const stale = REACHABLE_AUTH_ENDPOINTS.filter((e) => !mounted.has(`${e.method} ${e.path}`));
    expect(stale).toEqual([]);
  });

  it("leaves Better Auth's admin plugin, account deletion, e-mail change and update-user off it", () => {
    const endpoints = mountedEndpoints();
    const admin = endpoints.filter((e) => e.path.startsWith("/admin/"));
    // The plugin's endpoints as issue 29 found them; a new one is closed all the same.
    expect(admin.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        "/admin/set-role",
        "/admin/set-user-password",
        "/admin/ban-user",
        "/admin/unban-user",
        "/admin/impersonate-user",
        "/admin/stop-impersonating",
        "/admin/create-user",
        "/admin/remove-user",
        "/admin/list-users",
        "/admin/list-user-sessions",
        "/admin/revoke-user-session",
        "/admin/revoke-user-sessions",
        "/admin/update-user",
        "/admin/has-permission",
      ]),
    );
    for (const e of endpoints.filter(
      (x) => x.path.startsWith("/admin/") || /delete|change-email|update-user/.test(x.path),
    )) {
      for (const m of e.methods)
        expect(reachableAuthEndpoint(m, `${AUTH_BASE}${concrete(e.path)}`), e.path).toBeUndefined();
    }
  });
});

describe("over HTTP, every endpoint not on the list", () => {
  it("refuses each of the issue's escalations, as an admin, an author and nobody, and changes nothing", async () => {
    const before = await accountState();
    const filesBefore = uploadsOf(author.id);
    expect(filesBefore.length).toBeGreaterThan(0);
    for (const p of PEOPLE()) {
      for (const [path, body] of [
        ["/admin/set-role", { userId: p.id, role: "super_admin" }],
        ["/admin/set-user-password", { userId: superUser.id, newPassword: ATTACKER_PASSWORD }],
        ["/admin/ban-user", { userId: superUser.id }],
        ["/admin/impersonate-user", { userId: author.id }],
        [
          "/admin/create-user",
          { email: "boss2@example.com", password: ATTACKER_PASSWORD, name: "B", role: "super_admin" },
        ],
        ["/admin/remove-user", { userId: author.id }],
      ] as const) {
        const res = await raw("POST", `${AUTH_BASE}${path}`, { json: body, ...(p.cookie ? { cookie: p.cookie } : {}) });
        expectRefused(`${p.who} POST ${AUTH_BASE}${path}`, res);
      }
      // Impersonation gave no session: the export is still the caller's own (or none at all).
      const exported = await s.api("/api/account/export", p.cookie ? { cookie: p.cookie } : {});
      if (p.cookie === author.cookie) expect(exported.status).toBe(200);
      else if (p.cookie) {
        expect(exported.status).toBe(200);
        const bytes = Buffer.from(await exported.arrayBuffer());
        expect(bytes.includes(Buffer.from(author.email))).toBe(false);
      } else expect(exported.status).toBe(401);
    }
    // The super admin's password is still their own; the attacker's is wrong.
    const stolen = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: superUser.email, password: ATTACKER_PASSWORD },
    });
    expect(stolen.status).toBe(401);
    const after = await accountState();
    expect(after).toEqual(before);
    expect(after.users.find((u) => u.id === adminUser.id)?.role).toBe("admin");
    expect(after.users.find((u) => u.id === superUser.id)).toMatchObject({ role: "super_admin", banned: false });
    expect(after.users.some((u) => u.email === "boss2@example.com")).toBe(false);
    expect(uploadsOf(author.id)).toEqual(filesBefore);
    const own = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: superUser.email, password: TEST_PASSWORD },
    });
    expect(own.status).toBe(200);
  });

  it("refuses every other endpoint Better Auth mounts, by both methods, and changes nothing", async () => {
    const before = await accountState();
    let tried = 0;
    for (const e of mountedEndpoints()) {
      for (const method of ["GET", "POST"]) {
        const path = `${AUTH_BASE}${concrete(e.path)}`;
        if (reachableAuthEndpoint(method, path)) continue;
        for (const p of PEOPLE()) {
          const res = await raw(method, path, {
            ...(p.cookie ? { cookie: p.cookie } : {}),
            ...(method === "POST" ? { json: harmfulBody(e.key, p.id) } : {}),
          });
          expectRefused(`${p.who} ${method} ${path}`, res);
          tried++;
        }
      }
    }
    expect(tried).toBeGreaterThan(3 * 40);
    expect(await accountState()).toEqual(before);
  });

  it("refuses the admin plugin's paths however they are spelled, by any method", async () => {
    const before = await accountState();
    const admin = mountedEndpoints().filter((e) => e.path.startsWith("/admin/"));
    expect(admin.length).toBeGreaterThanOrEqual(14);
    for (const e of admin) {
      for (const path of variants(e.path)) {
        for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]) {
          for (const p of PEOPLE()) {
            const res = await raw(method, path, {
              ...(p.cookie ? { cookie: p.cookie } : {}),
              ...(method !== "GET" && method !== "HEAD" ? { json: harmfulBody(e.key, p.id) } : {}),
            });
            const label = `${p.who} ${method} ${path}`;
            expect([label, res.status]).toEqual([label, 404]);
            expect([label, res.setCookie]).toEqual([label, []]);
          }
        }
      }
    }
    expect(await accountState()).toEqual(before);
  }, 180_000);

  it("takes an allowed endpoint only at its exact path and method", async () => {
    // Dot segments are not a different path: the request's URL is resolved (WHATWG) before our
    // check and Better Auth's router both read it, so `/x/../sign-in/email` is sign-in itself.
    const spellings = variants("/sign-in/email")
      .slice(1, -2)
      .filter((p) => !p.includes("/."));
    for (const path of spellings) {
      const res = await raw("POST", path, { json: { email: superUser.email, password: TEST_PASSWORD } });
      expect([path, res.status]).toEqual([path, 404]);
      expect([path, res.setCookie]).toEqual([path, []]);
    }
    expectRefused("GET /api/auth/sign-in/email", await raw("GET", "/api/auth/sign-in/email"));
    expectRefused("POST /api/auth/get-session", await raw("POST", "/api/auth/get-session", { json: {} }));
    expectRefused("PUT /api/auth/sign-out", await raw("PUT", "/api/auth/sign-out", { json: {} }));
    const ok = await raw("POST", "/api/auth/sign-in/email", {
      json: { email: superUser.email, password: TEST_PASSWORD },
    });
    expect(ok.status).toBe(200);
    expect(ok.setCookie.length).toBeGreaterThan(0);
  });

  it("answers a sign-up that names a role with a 400 and makes nobody", async () => {
    const before = await accountState();
    const res = await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "Sneaky", email: "sneaky@example.com", password: ATTACKER_PASSWORD, role: "super_admin" },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/role/);
    expect(await accountState()).toEqual(before);
  });
});

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
