// The back office through the real server: who may see it, the accounts list, bans, metrics,
// health and the audit log (support tickets: admin-tickets.test.ts).
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { setRole } from "../../../app/cli/admin.ts";
import { session, websiteAnalytics, websites } from "../../../db/schema/index.ts";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import {
  createAuthor,
  createSignedInUser,
  createStaff,
  TEST_PASSWORD,
  type TestAuthor,
  type TestUser,
} from "../../../testing/users.ts";

startFileServer();
let author: TestAuthor;
let other: TestAuthor;
let adminUser: TestUser;
let superUser: TestUser;

beforeAll(async () => {
  author = await createAuthor(s, { name: "Ada Writer" });
  other = await createAuthor(s, { name: "Bob Novelist", tier: "midi" });
  ({ admin: adminUser, superAdmin: superUser } = await createStaff(s));
});

/** By path, for the role loop and bad input. */
const rawGet = (path: string, cookie?: string) => s.api(path, cookie ? { cookie } : {});

/** Every admin read, and a valid request for each admin write (so staff get their 2xx). */
function adminRequests(ticketId: string, target: string) {
  return [
    { method: "GET", path: "/api/admin/overview" },
    { method: "GET", path: "/api/admin/users" },
    { method: "GET", path: "/api/admin/financial" },
    { method: "GET", path: "/api/admin/analytics" },
    { method: "GET", path: "/api/admin/tickets" },
    { method: "GET", path: "/api/admin/system" },
    { method: "GET", path: "/api/admin/audit" },
    { method: "POST", path: "/api/admin/metrics/recalculate" },
    { method: "POST", path: `/api/admin/users/${target}/password-reset` },
    { method: "POST", path: `/api/admin/users/${target}/ban`, json: { banned: false } },
    { method: "POST", path: `/api/admin/tickets/${ticketId}/close` },
  ] as { method: string; path: string; json?: unknown }[];
}

describe("who may use the back office", () => {
  it("401 signed out, 403 for an author (no data), 2xx for admin and super_admin", async () => {
    const filed = await readJson(
      apiClient(s, author).support.tickets.$post({ json: { subject: "Help", message: "Please" } }),
    );
    const { ticket } = filed.body;
    // Every admin route by path: the refusal, not the request shape, is under test.
    for (const r of adminRequests(ticket.id, other.id)) {
      const init = { method: r.method, ...(r.json === undefined ? {} : { json: r.json }) };
      const out = await s.api(r.path, init);
      expect(out.status, `${r.method} ${r.path} signed out`).toBe(401);
      const denied = await s.api(r.path, { ...init, cookie: author.cookie });
      expect(denied.status, `${r.method} ${r.path} as an author`).toBe(403);
      const body = await denied.json();
      expect(Object.keys(body)).toEqual(["error"]);
      expect(body.error.code).toBe("forbidden");
    }
    // Closing twice is a conflict, so the staff pass reopens in between.
    for (const staff of [adminUser, superUser]) {
      for (const r of adminRequests(ticket.id, other.id)) {
        const res = await s.api(r.path, {
          method: r.method,
          cookie: staff.cookie,
          ...(r.json === undefined ? {} : { json: r.json }),
        });
        expect(res.status, `${r.method} ${r.path} as ${staff.email}`).toBe(200);
      }
      expect(
        (await readJson(apiClient(s, staff).admin.tickets[":id"].reopen.$post({ param: { id: ticket.id } }))).status,
      ).toBe(200);
    }
  });

  it("says who is staff: demo mode for everyone else", async () => {
    expect((await readJson(apiClient(s).admin.access.$get())).status).toBe(401);
    expect((await readJson(apiClient(s, author).admin.access.$get())).body).toMatchObject({
      staff: false,
      role: "user",
      userId: author.id,
    });
    expect((await readJson(apiClient(s, superUser).admin.access.$get())).body).toMatchObject({
      staff: true,
      role: "super_admin",
    });
  });

  it("reads the role from the database on every request: a revoked admin is refused at once", async () => {
    const temp = await createSignedInUser(s, { prefix: "temp-staff" });
    await setRole(s.database.db, temp.email, "admin");
    expect((await readJson(apiClient(s, temp).admin.overview.$get())).status).toBe(200);
    await setRole(s.database.db, temp.email, "user");
    expect((await readJson(apiClient(s, temp).admin.overview.$get())).status).toBe(403);
  });
});

describe("accounts", () => {
  it("lists every account with its site and plan, searched, filtered and paged on the server", async () => {
    const all = (await readJson(apiClient(s, adminUser).admin.users.$get({ query: { pageSize: "100" } }))).body;
    expect(all.total).toBeGreaterThanOrEqual(4);
    const ada = all.users.find((u: { id: string }) => u.id === author.id);
    expect(ada).toMatchObject({
      name: "Ada Writer",
      email: author.email,
      subdomain: author.subdomain,
      websiteName: "Ada Writer's Books",
      tier: "mini",
      status: "trial",
      role: "user",
      banned: false,
    });
    const bySubdomain = (await readJson(apiClient(s, adminUser).admin.users.$get({ query: { q: other.subdomain } })))
      .body;
    expect(bySubdomain.users.map((u: { id: string }) => u.id)).toEqual([other.id]);
    expect(bySubdomain.total).toBe(1);
    const midi = (await readJson(apiClient(s, adminUser).admin.users.$get({ query: { tier: "midi" } }))).body;
    expect(midi.users.every((u: { tier: string }) => u.tier === "midi")).toBe(true);
    expect(midi.users.some((u: { id: string }) => u.id === other.id)).toBe(true);
    // A search's % and _ are letters, not patterns.
    expect((await readJson(apiClient(s, adminUser).admin.users.$get({ query: { q: "%" } }))).body.total).toBe(0);
    const page1 = (
      await readJson(
        apiClient(s, adminUser).admin.users.$get({ query: { pageSize: "2", page: "1", sort: "email", order: "asc" } }),
      )
    ).body;
    const page2 = (
      await readJson(
        apiClient(s, adminUser).admin.users.$get({ query: { pageSize: "2", page: "2", sort: "email", order: "asc" } }),
      )
    ).body;
    expect(page1.users).toHaveLength(2);
    const emails = [...page1.users, ...page2.users].map((u: { email: string }) => u.email);
    expect(emails).toEqual([...emails].sort());
    expect(new Set(emails).size).toBe(emails.length);
  });

  it("refuses bad list parameters with a clear message", async () => {
    // Deliberately bad parameters, sent by path.
    const res = await rawGet("/api/admin/users?pageSize=1000", adminUser.cookie);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ field: "pageSize", message: "Page size is at most 100" });
    expect((await rawGet("/api/admin/users?status=sleeping", adminUser.cookie)).status).toBe(400);
  });

  it("changes roles only as a super admin, and writes the audit log", async () => {
    const target = await createSignedInUser(s, { prefix: "promote" });
    const asAdmin = await apiClient(s, adminUser).admin.users[":id"].role.$patch({
      param: { id: target.id },
      json: { role: "admin" },
    });
    expect(asAdmin.status).toBe(403);
    const asSuper = await apiClient(s, superUser).admin.users[":id"].role.$patch({
      param: { id: target.id },
      json: { role: "admin" },
    });
    expect(asSuper.status).toBe(200);
    expect((await readJson(apiClient(s, target).admin.overview.$get())).status).toBe(200);
    const own = await apiClient(s, superUser).admin.users[":id"].role.$patch({
      param: { id: superUser.id },
      json: { role: "user" },
    });
    expect(own.status).toBe(409);
    const { entries } = (await readJson(apiClient(s, superUser).admin.audit.$get())).body;
    expect(entries[0]).toMatchObject({
      actorEmail: superUser.email,
      action: "role_changed",
      target: target.email,
      detail: "user → admin",
    });
  });

  it("bans: signed out everywhere, sign-in refused, site unavailable; unban restores", async () => {
    const victim = await createAuthor(s, { name: "Spam Author" });
    expect((await s.onHost(`${victim.subdomain}.localhost`, "/")).status).toBe(200);
    const ban = await readJson(
      apiClient(s, adminUser).admin.users[":id"].ban.$post({
        param: { id: victim.id },
        json: { banned: true, reason: "spam" },
      }),
    );
    expect(ban.status).toBe(200);
    expect(await s.database.db.select().from(session).where(eq(session.userId, victim.id))).toHaveLength(0);
    expect((await readJson(apiClient(s, victim).profile.$get())).status).toBe(401);
    const signIn = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: victim.email, password: TEST_PASSWORD },
    });
    expect(signIn.status).toBeGreaterThanOrEqual(400);
    const site = await s.onHost(`${victim.subdomain}.localhost`, "/");
    expect(site.status).toBe(503);
    expect(site.body).toContain("temporarily unavailable");

    expect(
      (
        await readJson(
          apiClient(s, adminUser).admin.users[":id"].ban.$post({ param: { id: victim.id }, json: { banned: false } }),
        )
      ).status,
    ).toBe(200);
    expect((await s.onHost(`${victim.subdomain}.localhost`, "/")).status).toBe(200);
    const again = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: victim.email, password: TEST_PASSWORD },
    });
    expect(again.status).toBe(200);
    const { entries } = (await readJson(apiClient(s, adminUser).admin.audit.$get())).body;
    expect(entries.slice(0, 2).map((e: { action: string }) => e.action)).toEqual(["user_unbanned", "user_banned"]);
  });

  it("an admin cannot ban a super admin or themselves", async () => {
    expect(
      (
        await readJson(
          apiClient(s, adminUser).admin.users[":id"].ban.$post({ param: { id: superUser.id }, json: { banned: true } }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await readJson(
          apiClient(s, adminUser).admin.users[":id"].ban.$post({ param: { id: adminUser.id }, json: { banned: true } }),
        )
      ).status,
    ).toBe(409);
    expect(
      (
        await readJson(
          apiClient(s, adminUser).admin.users[":id"].ban.$post({ param: { id: "nobody" }, json: { banned: true } }),
        )
      ).status,
    ).toBe(404);
  });

  it("sends a password-reset mail to the account", async () => {
    const res = await readJson(
      apiClient(s, adminUser).admin.users[":id"]["password-reset"].$post({ param: { id: other.id } }),
    );
    expect(res.status).toBe(200);
    const mail = await s.smtp.waitFor(other.email, "Reset");
    expect(mail.text).toContain("/reset-password");
  });
});

describe("metrics, traffic and health", () => {
  it("recalculates today's metrics from the real tables", async () => {
    const res = await readJson(apiClient(s, superUser).admin.metrics.recalculate.$post());
    expect(res.status).toBe(200);
    const { metrics } = res.body;
    const overview = (await readJson(apiClient(s, superUser).admin.overview.$get())).body;
    expect(metrics.metricDate).toBe(new Date().toISOString().slice(0, 10));
    expect(metrics.totalUsers).toBe(overview.totalUsers);
    expect(metrics.trialUsers).toBeGreaterThanOrEqual(2);
    expect(metrics.miniTierUsers + metrics.midiTierUsers).toBeGreaterThanOrEqual(2);
    expect(overview.latestMetrics).toMatchObject({ metricDate: metrics.metricDate, totalUsers: metrics.totalUsers });
    expect(overview.activeUsers30d).toBeGreaterThanOrEqual(4);
  });

  it("sums the last 30 days of traffic, top sites first, with a zero-filled daily series", async () => {
    const [site] = await s.database.db.select().from(websites).where(eq(websites.userId, other.id));
    if (!site) throw new Error("no website");
    const today = new Date().toISOString().slice(0, 10);
    const old = new Date(Date.now() - 40 * 864e5).toISOString().slice(0, 10);
    await s.database.db.insert(websiteAnalytics).values([
      { websiteId: site.id, date: today, pageViews: 30, uniqueVisitors: 12 },
      { websiteId: site.id, date: old, pageViews: 1000, uniqueVisitors: 900 },
    ]);
    const a = (await readJson(apiClient(s, adminUser).admin.analytics.$get())).body;
    expect(a.daily).toHaveLength(30);
    expect(a.daily.at(-1)).toMatchObject({ date: today });
    expect(a.daily.at(-1).pageViews).toBeGreaterThanOrEqual(30);
    expect(a.topWebsites[0]).toMatchObject({ subdomain: other.subdomain });
    expect(a.pageViews).toBeLessThan(1000);
    expect(a.pagesPerVisitor).toBeCloseTo(a.pageViews / a.uniqueVisitors, 2);
  });

  it("reports health from real checks", async () => {
    const h = (await readJson(apiClient(s, adminUser).admin.system.$get())).body;
    const names = h.checks.map((c: { name: string }) => c.name);
    expect(names).toEqual(["Database", "Mail", "Mail outbox", "File storage", "Daily metrics job"]);
    expect(h.checks.every((c: { ok: boolean }) => c.ok)).toBe(true);
    expect(h.checks[0].detail).toMatch(/answered in \d+ ms/);
    expect(h.memory.rssBytes).toBeGreaterThan(1e6);
  });
});
