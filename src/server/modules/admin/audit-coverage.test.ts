// Every staff action that changes anything leaves exactly one audit row naming who did it, what
// they did and to what. The routes are read from the mounted API's own document, so a new
// /api/admin write fails here until it has a case below (with its audit row) or an exemption
// with a reason.
import { desc } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { adminAuditLog } from "../../../db/schema/index.ts";
import { apiClient } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import {
  createAuthor,
  createSignedInUser,
  createStaff,
  type TestAuthor,
  type TestUser,
} from "../../../testing/users.ts";

startFileServer();
let boss: TestUser;
let staff: TestUser;
let author: TestAuthor;
let helper: TestUser;

beforeAll(async () => {
  ({ admin: staff, superAdmin: boss } = await createStaff(s, "audit-"));
  helper = await createSignedInUser(s, { prefix: "audit-helper" });
  author = await createAuthor(s, { name: "Ava Audited" });
  // Filed before the ban below signs the author out.
  await aTicket();
});

type AuditRow = typeof adminAuditLog.$inferSelect;
type Step = {
  /** Who acts (the super admin unless said). */
  as?: "boss" | "staff";
  request: () => Promise<{ method: string; path: string; json?: unknown }>;
  /** The row it must leave. */
  row: () => Partial<AuditRow>;
};

let ticketId = "";
const ticketSubject = "Audit me please";
async function aTicket() {
  if (ticketId) return ticketId;
  const res = await apiClient(s, author).support.tickets.$post({
    json: { subject: ticketSubject, message: "Something is wrong" },
  });
  expect(res.status).toBeLessThan(300);
  ticketId = ((await res.json()) as { ticket: { id: string } }).ticket.id;
  return ticketId;
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * One entry per mutating staff route, as the document names it: the requests that exercise it
 * (each must answer 2xx) and the row each leaves.
 */
const CASES: Record<string, Step[]> = {
  "PATCH /api/admin/users/{id}/role": [
    {
      request: async () => ({ method: "PATCH", path: `/api/admin/users/${helper.id}/role`, json: { role: "admin" } }),
      row: () => ({ action: "role_changed", targetUserId: helper.id, target: helper.email, detail: "user → admin" }),
    },
  ],
  "POST /api/admin/users/{id}/ban": [
    {
      as: "staff",
      request: async () => ({
        method: "POST",
        path: `/api/admin/users/${author.id}/ban`,
        json: { banned: true, reason: "spam" },
      }),
      row: () => ({ action: "user_banned", targetUserId: author.id, target: author.email, detail: "spam" }),
    },
    {
      as: "staff",
      request: async () => ({ method: "POST", path: `/api/admin/users/${author.id}/ban`, json: { banned: false } }),
      row: () => ({ action: "user_unbanned", targetUserId: author.id, target: author.email }),
    },
  ],
  "POST /api/admin/users/{id}/newsletter-sending": [
    {
      as: "staff",
      request: async () => ({
        method: "POST",
        path: `/api/admin/users/${helper.id}/newsletter-sending`,
        json: { paused: true, reason: "bounce rate" },
      }),
      row: () => ({
        action: "newsletter_sending_paused",
        targetUserId: helper.id,
        target: helper.email,
        detail: "bounce rate",
      }),
    },
    {
      request: async () => ({
        method: "POST",
        path: `/api/admin/users/${helper.id}/newsletter-sending`,
        json: { paused: false, reason: "list cleaned" },
      }),
      row: () => ({ action: "newsletter_sending_resumed", targetUserId: helper.id, target: helper.email }),
    },
  ],
  "POST /api/admin/users/{id}/password-reset": [
    {
      as: "staff",
      request: async () => ({ method: "POST", path: `/api/admin/users/${author.id}/password-reset` }),
      row: () => ({ action: "password_reset_sent", targetUserId: author.id, target: author.email }),
    },
  ],
  "PUT /api/admin/rates/{currency}": [
    {
      request: async () => ({ method: "PUT", path: "/api/admin/rates/USD", json: { rate: "0.7812" } }),
      row: () => ({ action: "exchange_rate_changed", target: "USD→GBP", detail: "0.7812" }),
    },
  ],
  "POST /api/admin/metrics/recalculate": [
    {
      as: "staff",
      request: async () => ({ method: "POST", path: "/api/admin/metrics/recalculate" }),
      row: () => ({ action: "metrics_recalculated", target: `Metrics of ${today()}` }),
    },
  ],
  "POST /api/admin/actions/refresh-analytics": [
    {
      as: "staff",
      request: async () => ({ method: "POST", path: "/api/admin/actions/refresh-analytics" }),
      row: () => ({ action: "analytics_refreshed", target: `Analytics of ${today()}` }),
    },
  ],
  "POST /api/admin/actions/maintenance": [
    {
      request: async () => ({ method: "POST", path: "/api/admin/actions/maintenance" }),
      row: () => ({ action: "maintenance_run", target: "Database" }),
    },
  ],
  "POST /api/admin/tickets/{id}/respond": [
    {
      as: "staff",
      request: async () => ({
        method: "POST",
        path: `/api/admin/tickets/${await aTicket()}/respond`,
        json: { response: "Fixed now" },
      }),
      row: () => ({ action: "ticket_responded", targetUserId: author.id, target: `Ticket: ${ticketSubject}` }),
    },
  ],
  "POST /api/admin/tickets/{id}/close": [
    {
      as: "staff",
      request: async () => ({ method: "POST", path: `/api/admin/tickets/${await aTicket()}/close` }),
      row: () => ({ action: "ticket_closed", targetUserId: author.id, target: `Ticket: ${ticketSubject}` }),
    },
  ],
  "POST /api/admin/tickets/{id}/reopen": [
    {
      as: "staff",
      request: async () => ({ method: "POST", path: `/api/admin/tickets/${await aTicket()}/reopen` }),
      row: () => ({ action: "ticket_reopened", targetUserId: author.id, target: `Ticket: ${ticketSubject}` }),
    },
  ],
};

/**
 * Mutating staff routes that leave no audit row, each with the reason. Keep this short: a route
 * belongs here only if it changes nothing a person would ask "who did this?" about.
 */
const EXEMPT: Record<string, string> = {};

const WRITES = new Set(["post", "put", "patch", "delete"]);

async function mutatingStaffRoutes(): Promise<string[]> {
  const doc = (await (await s.api("/api/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith("/api/admin/"))
    .flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => WRITES.has(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();
}

async function auditRows(): Promise<AuditRow[]> {
  return s.database.db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id));
}

describe("the audit log", () => {
  it("has a case or a stated exemption for every staff route that changes anything", async () => {
    const routes = await mutatingStaffRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(Object.keys(CASES).length);
    const uncovered = routes.filter((r) => !(r in CASES) && !(r in EXEMPT));
    // A new staff write: add it to CASES with the audit row it writes (or to EXEMPT, with why).
    expect(uncovered).toEqual([]);
    const stale = [...Object.keys(CASES), ...Object.keys(EXEMPT)].filter((r) => !routes.includes(r));
    expect(stale).toEqual([]);
    for (const [route, why] of Object.entries(EXEMPT)) expect(why.trim().length, route).toBeGreaterThan(10);
  });

  it("gets exactly one row per staff change, naming the actor, the action and the target", async () => {
    const routes = await mutatingStaffRoutes();
    for (const route of routes.filter((r) => r in CASES)) {
      for (const step of CASES[route] ?? []) {
        const actor = step.as === "staff" ? staff : boss;
        const req = await step.request();
        const before = await auditRows();
        const res = await s.api(req.path, {
          method: req.method,
          cookie: actor.cookie,
          ...(req.json === undefined ? {} : { json: req.json }),
        });
        expect([route, res.status]).toEqual([route, 200]);
        const after = await auditRows();
        const beforeIds = new Set(before.map((r) => r.id));
        const added = after.filter((r) => !beforeIds.has(r.id));
        expect([route, added.length]).toEqual([route, 1]);
        const [row] = added;
        expect(row, route).toMatchObject({ actorId: actor.id, actorEmail: actor.email, ...step.row() });
        expect(row?.target, `${route}: a target in words`).toBeTruthy();
      }
    }
  });

  it("gets no row for a change our rules refuse", async () => {
    const reader = await createSignedInUser(s, { prefix: "audit-nobody" });
    const before = (await auditRows()).length;
    const refused = [
      // Only a super admin changes roles or rates; nobody bans themselves or a super admin as admin.
      await apiClient(s, staff).admin.users[":id"].role.$patch({ param: { id: author.id }, json: { role: "admin" } }),
      await apiClient(s, staff).admin.rates[":currency"].$put({ param: { currency: "USD" }, json: { rate: "2" } }),
      await apiClient(s, staff).admin.users[":id"].ban.$post({ param: { id: boss.id }, json: { banned: true } }),
      await apiClient(s, staff).admin.users[":id"].ban.$post({ param: { id: staff.id }, json: { banned: true } }),
      await apiClient(s, boss).admin.users[":id"].role.$patch({ param: { id: boss.id }, json: { role: "user" } }),
      await apiClient(s, reader).admin.metrics.recalculate.$post(),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 409, 409, 403]);
    expect((await auditRows()).length).toBe(before);
  });
});
