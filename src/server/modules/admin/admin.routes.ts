// The back office's API. Every route but /admin/access is behind `staffOnly` (role read from
// the database per request): signed out 401, an author 403, admin and super_admin through.
// Demo mode is the app's: a non-admin gets no real figure from here, only /admin/access.
import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { CURRENCIES, type Role } from "../../../shared/enums.ts";
import {
  adminAccessSchema,
  analyticsSchema,
  auditEntrySchema,
  banSchema,
  financialSchema,
  isStaffRole,
  overviewSchema,
  rateUpdateSchema,
  roleChangeSchema,
  systemMetricsSchema,
  systemSchema,
  ticketResponseSchema,
  ticketSchema,
  ticketsQuerySchema,
  usersPageSchema,
  usersQuerySchema,
} from "../../../shared/schemas/admin.ts";
import type { AppVars } from "../../http/context.ts";
import { HttpError } from "../../http/errors.ts";
import { idParam } from "../../http/ids.ts";
import { apiRoute, apiRouter, errors, idParams, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { requireStaff, staffOnly } from "./admin.guard.ts";
import * as admin from "./admin.service.ts";
import * as staffTickets from "./admin-tickets.service.ts";
import * as finance from "./finance.service.ts";
import { systemHealth } from "./system-health.ts";
import { ticketFeed } from "./ticket-feed.ts";

const ticketId = (raw: string) => idParam(raw, () => new HttpError(404, "Ticket not found"));
const userId = (raw: string) => {
  if (!raw || raw.length > 200) throw new HttpError(404, "User not found");
  return raw;
};

const tags = ["Admin"];
const done = json(z.object({ ok: z.literal(true) }), "Done");
const oneTicket = json(z.object({ ticket: ticketSchema }), "The ticket");

/** An admin route: `apiRoute` plus the staff gate (403 before anything else is read). */
export function adminRoute<const R extends RouteConfig>(config: R) {
  return apiRoute({
    ...config,
    tags,
    middleware: [staffOnly, ...[config.middleware ?? []].flat()],
    responses: { ...errors(403), ...config.responses },
  }) as R;
}

const access = apiRoute({
  method: "get",
  path: "/admin/access",
  tags,
  summary: "Whether the signed-in user is staff (otherwise the app shows demo mode)",
  responses: { 200: json(adminAccessSchema, "The caller's access") },
});
const overview = adminRoute({
  method: "get",
  path: "/admin/overview",
  summary: "Revenue this month (GBP), active users (30 days), the latest metrics",
  responses: { 200: json(overviewSchema, "The overview") },
});
const users = adminRoute({
  method: "get",
  path: "/admin/users",
  summary: "Every account, searched, filtered, sorted and a page at a time",
  request: { query: usersQuerySchema },
  responses: { 200: json(usersPageSchema, "A page of accounts"), ...errors(400) },
});
const role = adminRoute({
  method: "patch",
  path: "/admin/users/{id}/role",
  summary: "Change an account's role (super admin only)",
  request: { params: idParams, body: jsonBody(roleChangeSchema) },
  responses: { 200: done, ...errors(400, 404, 409, 415) },
});
const ban = adminRoute({
  method: "post",
  path: "/admin/users/{id}/ban",
  summary: "Ban (signed out everywhere, site unavailable) or unban an account",
  request: { params: idParams, body: jsonBody(banSchema) },
  responses: { 200: done, ...errors(400, 404, 409, 415) },
});
const passwordReset = adminRoute({
  method: "post",
  path: "/admin/users/{id}/password-reset",
  summary: "Mail the account a password-reset link",
  request: { params: idParams },
  responses: { 200: done, ...errors(404) },
});
const financial = adminRoute({
  method: "get",
  path: "/admin/financial",
  summary: "Revenue, MRR, subscriptions, rates and recent transactions (GBP, minor units)",
  responses: { 200: json(financialSchema, "The figures") },
});
const rate = adminRoute({
  method: "put",
  path: "/admin/rates/{currency}",
  summary: "Set a currency's rate to GBP (super admin only)",
  request: { params: z.object({ currency: z.enum(CURRENCIES) }), body: jsonBody(rateUpdateSchema) },
  responses: { 200: done, ...errors(400, 404, 415) },
});
const analytics = adminRoute({
  method: "get",
  path: "/admin/analytics",
  summary: "Traffic over the last 30 days",
  responses: { 200: json(analyticsSchema, "The traffic") },
});
const recalculate = adminRoute({
  method: "post",
  path: "/admin/metrics/recalculate",
  summary: "Recompute today's system metrics (the daily job's work)",
  responses: { 200: json(z.object({ metrics: systemMetricsSchema }), "Today's metrics") },
});
const tickets = adminRoute({
  method: "get",
  path: "/admin/tickets",
  summary: "Support tickets: open ones first by priority (urgent first) and then oldest first; the rest newest first",
  request: { query: ticketsQuerySchema },
  responses: {
    200: json(z.object({ tickets: z.array(ticketSchema), openCount: z.number() }), "The tickets"),
    ...errors(400),
  },
});
const ticketEvents = adminRoute({
  method: "get",
  path: "/admin/tickets/events",
  summary: "Server-sent events: `open-count` with `{ open }` now and whenever it changes",
  responses: { 200: { description: "An event stream", content: { "text/event-stream": { schema: z.string() } } } },
});
const respond = adminRoute({
  method: "post",
  path: "/admin/tickets/{id}/respond",
  summary: "Answer an open ticket (the author is mailed)",
  request: { params: idParams, body: jsonBody(ticketResponseSchema) },
  responses: { 200: oneTicket, ...errors(400, 404, 409, 415) },
});
/** Close or reopen a ticket: the same route but for the word at its end. */
const ticketStatusRoute = <const A extends "close" | "reopen">(action: A, summary: string) =>
  adminRoute({
    method: "post",
    path: `/admin/tickets/{id}/${action}`,
    summary,
    request: { params: idParams },
    responses: { 200: oneTicket, ...errors(404, 409) },
  });
const close = ticketStatusRoute("close", "Close a ticket");
const reopen = ticketStatusRoute("reopen", "Reopen a closed ticket");
const system = adminRoute({
  method: "get",
  path: "/admin/system",
  summary: "Health from real checks: database, mail, storage, jobs, process",
  responses: { 200: json(systemSchema, "The checks") },
});
const audit = adminRoute({
  method: "get",
  path: "/admin/audit",
  summary: "What staff did, newest first",
  responses: { 200: json(z.object({ entries: z.array(auditEntrySchema) }), "The audit log") },
});

/** The handler of `ticketStatusRoute(action)`. */
const setTicketStatus =
  <const A extends "close" | "reopen">(action: A): RouteHandler<ReturnType<typeof ticketStatusRoute<A>>, AppVars> =>
  async (c) => {
    const actor = await requireStaff(c);
    const db = c.get("deps").database.db;
    const change = await staffTickets.setTicketStatus(db, actor, ticketId(c.req.valid("param").id), action);
    return c.json({ ticket: change.ticket }, 200);
  };

export function adminRoutes() {
  return apiRouter()
    .openapi(access, async (c) => {
      const me = await requireUser(c);
      const row = await admin.staffRole(c.get("deps").database.db, me.id);
      const role = (row?.role ?? "user") as Role;
      return c.json({ staff: isStaffRole(role) && !row?.banned, role, userId: me.id, email: me.email }, 200);
    })
    .openapi(overview, async (c) => c.json(await admin.overview(c.get("deps").database.db), 200))
    .openapi(users, async (c) => {
      const { database, env } = c.get("deps");
      return c.json(await admin.usersPage(database.db, c.req.valid("query"), env), 200);
    })
    .openapi(role, async (c) => {
      const actor = await requireStaff(c);
      await admin.changeRole(
        c.get("deps").database.db,
        actor,
        userId(c.req.valid("param").id),
        c.req.valid("json").role,
      );
      return c.json({ ok: true as const }, 200);
    })
    .openapi(ban, async (c) => {
      const actor = await requireStaff(c);
      const { banned, reason } = c.req.valid("json");
      await admin.setBanned(c.get("deps").database.db, actor, userId(c.req.valid("param").id), banned, reason ?? null);
      return c.json({ ok: true as const }, 200);
    })
    .openapi(passwordReset, async (c) => {
      const actor = await requireStaff(c);
      const { database, auth } = c.get("deps");
      const email = await admin.auditPasswordReset(database.db, actor, userId(c.req.valid("param").id));
      await auth.api.requestPasswordReset({ body: { email, redirectTo: "/reset-password" } });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(financial, async (c) => c.json(await finance.financial(c.get("deps").database.db), 200))
    .openapi(rate, async (c) => {
      const actor = await requireStaff(c);
      await finance.setRate(c.get("deps").database.db, actor, c.req.valid("param").currency, c.req.valid("json").rate);
      return c.json({ ok: true as const }, 200);
    })
    .openapi(analytics, async (c) => {
      const { database, env } = c.get("deps");
      return c.json(await admin.analytics(database.db, env), 200);
    })
    .openapi(recalculate, async (c) => {
      const actor = await requireStaff(c);
      const { database } = c.get("deps");
      const metrics = await admin.recalculateMetrics(database.db);
      await admin.recordAudit(
        database.db,
        actor,
        "metrics_recalculated",
        undefined,
        `Metrics of ${metrics.metricDate}`,
      );
      return c.json({ metrics }, 200);
    })
    .openapi(tickets, async (c) => {
      const db = c.get("deps").database.db;
      return c.json(
        {
          tickets: await staffTickets.allTickets(db, c.req.valid("query")),
          openCount: await staffTickets.openTicketCount(db),
        },
        200,
      );
    })
    .openapi(ticketEvents, async (c) => {
      const { database, logger } = c.get("deps");
      const feed = await ticketFeed(database, logger);
      return streamSSE(c, async (stream) => {
        let closed = false;
        // Wakes the keep-alive wait at once when the page goes (no timer outlives the stream).
        let wake = () => {};
        stream.onAbort(() => {
          closed = true;
          wake();
        });
        const send = (open: number) =>
          stream.writeSSE({ event: "open-count", data: JSON.stringify({ open }) }).catch(() => {
            closed = true;
            wake();
          });
        const unsubscribe = feed.subscribe((open) => void send(open));
        try {
          await send(await staffTickets.openTicketCount(database.db));
          // A comment now and then keeps proxies from closing a quiet stream.
          while (!closed) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, 20_000);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            if (!closed) await stream.write(": ping\n\n");
          }
        } finally {
          unsubscribe();
        }
      }) as never;
    })
    .openapi(respond, async (c) => {
      const actor = await requireStaff(c);
      const { database, mailer, logger, env } = c.get("deps");
      const change = await staffTickets.respondToTicket(
        database.db,
        actor,
        ticketId(c.req.valid("param").id),
        c.req.valid("json").response,
        env.appOrigin,
      );
      if (change.notify) {
        // The answer is saved whatever the mail does; a failure is logged (and kept in the outbox).
        await mailer.send(change.notify).catch((err: unknown) => logger.error({ err }, "ticket answer mail failed"));
      }
      return c.json({ ticket: change.ticket }, 200);
    })
    .openapi(close, setTicketStatus("close"))
    .openapi(reopen, setTicketStatus("reopen"))
    .openapi(system, async (c) => c.json(await systemHealth(c.get("deps")), 200))
    .openapi(audit, async (c) => c.json({ entries: await admin.auditLog(c.get("deps").database.db) }, 200));
}
