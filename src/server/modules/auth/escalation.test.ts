// Issue 29's takeover, replayed: Better Auth's admin plugin endpoints (and every other endpoint it
// mounts that no screen uses) asked for over HTTP by an admin, an author and nobody, under every
// spelling of the path — each refused with our 404, and the account, session and password rows
// read back from the database unchanged. The same powers asked for through the plugin's
// server-side API are in escalation-server-api.test.ts.
import { describe, expect, it } from "vitest";
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
import { hostRequest } from "../../../testing/test-server.ts";
import { TEST_PASSWORD } from "../../../testing/users.ts";
import { AUTH_BASE, REACHABLE_AUTH_ENDPOINTS, reachableAuthEndpoint } from "./auth-endpoints.ts";

startTakeoverServer();

type Answer = { status: number; body: string; setCookie: string[] };

/** A request with the path exactly as written (fetch would resolve `..` and may re-encode escapes). */
async function raw(method: string, path: string, opts: { cookie?: string; json?: unknown } = {}): Promise<Answer> {
  const body = opts.json === undefined ? undefined : Buffer.from(JSON.stringify(opts.json));
  const headers: Record<string, string> = { origin: s.url };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(body.length);
  }
  const res = await hostRequest(s.port, new URL(s.url).hostname, method, path, headers, body);
  const sc = res.headers["set-cookie"];
  return { status: res.status, body: res.body, setCookie: Array.isArray(sc) ? sc : sc ? [sc] : [] };
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
