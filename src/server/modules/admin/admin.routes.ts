// The back office's API. Every route but /admin/access is behind `staffOnly` (role read from
// the database per request): signed out 401, an author 403, admin and super_admin through.
// Demo mode is the app's: a non-admin gets no real figure from here, only /admin/access.
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
import type { AppDeps } from "../../http/context.ts";
import { HttpError } from "../../http/errors.ts";
import { answer, answerFor, db } from "../../http/handlers.ts";
import { idParam } from "../../http/ids.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { requireStaff, staffOnly } from "./admin.guard.ts";
import type { Staff } from "./admin.service.ts";
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

/** Admin routes: the staff gate first (403 before anything else is read). */
export const adminRoute = routes({ tags, middleware: [staffOnly], errors: [403] });
/** An admin route's handler: `work` for the staff member. */
export const staffAnswer = answerFor(requireStaff);

const access = routes({ tags }).get("/admin/access", {
  summary: "Whether the signed-in user is staff (otherwise the app shows demo mode)",
  ok: { 200: json(adminAccessSchema, "The caller's access") },
});
const overview = adminRoute.get("/admin/overview", {
  summary: "Revenue this month (GBP), active users (30 days), the latest metrics",
  ok: { 200: json(overviewSchema, "The overview") },
});
const users = adminRoute.get("/admin/users", {
  summary: "Every account, searched, filtered, sorted and a page at a time",
  query: usersQuerySchema,
  ok: { 200: json(usersPageSchema, "A page of accounts") },
});
const role = adminRoute.patch("/admin/users/{id}/role", {
  summary: "Change an account's role (super admin only)",
  body: roleChangeSchema,
  ok: { 200: done },
  errors: [409],
});
const ban = adminRoute.post("/admin/users/{id}/ban", {
  summary: "Ban (signed out everywhere, site unavailable) or unban an account",
  body: banSchema,
  ok: { 200: done },
  errors: [409],
});
const passwordReset = adminRoute.post("/admin/users/{id}/password-reset", {
  summary: "Mail the account a password-reset link",
  ok: { 200: done },
});
const financial = adminRoute.get("/admin/financial", {
  summary: "Revenue, MRR, subscriptions, rates and recent transactions (GBP, minor units)",
  ok: { 200: json(financialSchema, "The figures") },
});
const rate = adminRoute.put("/admin/rates/{currency}", {
  summary: "Set a currency's rate to GBP (super admin only)",
  params: z.object({ currency: z.enum(CURRENCIES) }),
  body: rateUpdateSchema,
  ok: { 200: done },
  errors: [404],
});
const analytics = adminRoute.get("/admin/analytics", {
  summary: "Traffic over the last 30 days",
  ok: { 200: json(analyticsSchema, "The traffic") },
});
const recalculate = adminRoute.post("/admin/metrics/recalculate", {
  summary: "Recompute today's system metrics (the daily job's work)",
  ok: { 200: json(z.object({ metrics: systemMetricsSchema }), "Today's metrics") },
});
const tickets = adminRoute.get("/admin/tickets", {
  summary: "Support tickets: open ones first by priority (urgent first) and then oldest first; the rest newest first",
  query: ticketsQuerySchema,
  ok: { 200: json(z.object({ tickets: z.array(ticketSchema), openCount: z.number() }), "The tickets") },
});
const ticketEvents = adminRoute.get("/admin/tickets/events", {
  summary: "Server-sent events: `open-count` with `{ open }` now and whenever it changes",
  ok: { 200: { description: "An event stream", content: { "text/event-stream": { schema: z.string() } } } },
});
const respond = adminRoute.post("/admin/tickets/{id}/respond", {
  summary: "Answer an open ticket (the author is mailed)",
  body: ticketResponseSchema,
  ok: { 200: oneTicket },
  errors: [409],
});
/** Close or reopen a ticket: the same route but for the word at its end. */
const ticketStatusRoute = <const A extends "close" | "reopen">(action: A, summary: string) =>
  adminRoute.post(`/admin/tickets/{id}/${action}`, { summary, ok: { 200: oneTicket }, errors: [409] });
const close = ticketStatusRoute("close", "Close a ticket");
const reopen = ticketStatusRoute("reopen", "Reopen a closed ticket");
const system = adminRoute.get("/admin/system", {
  summary: "Health from real checks: database, mail, storage, jobs, process",
  ok: { 200: json(systemSchema, "The checks") },
});
const audit = adminRoute.get("/admin/audit", {
  summary: "What staff did, newest first",
  ok: { 200: json(z.object({ entries: z.array(auditEntrySchema) }), "The audit log") },
});

/** The work of `ticketStatusRoute(action)`. */
const setTicketStatus =
  (action: "close" | "reopen") =>
  async (c: { req: { param(name: "id"): string }; get(key: "deps"): AppDeps }, actor: Staff) => {
    const change = await staffTickets.setTicketStatus(db(c), actor, ticketId(c.req.param("id")), action);
    return { ticket: change.ticket };
  };

export function adminRoutes() {
  return apiRouter()
    .openapi(
      ...answer(access, async (c, me) => {
        const row = await admin.staffRole(db(c), me.id);
        const role = (row?.role ?? "user") as Role;
        return { staff: isStaffRole(role) && !row?.banned, role, userId: me.id, email: me.email };
      }),
    )
    .openapi(...staffAnswer(overview, (c) => admin.overview(db(c))))
    .openapi(...staffAnswer(users, (c) => admin.usersPage(db(c), c.req.valid("query"), c.get("deps").env)))
    .openapi(
      ...staffAnswer(role, async (c, actor) => {
        await admin.changeRole(db(c), actor, userId(c.req.valid("param").id), c.req.valid("json").role);
        return { ok: true as const };
      }),
    )
    .openapi(
      ...staffAnswer(ban, async (c, actor) => {
        const { banned, reason } = c.req.valid("json");
        await admin.setBanned(db(c), actor, userId(c.req.valid("param").id), banned, reason ?? null);
        return { ok: true as const };
      }),
    )
    .openapi(
      ...staffAnswer(passwordReset, async (c, actor) => {
        const email = await admin.auditPasswordReset(db(c), actor, userId(c.req.valid("param").id));
        await c.get("deps").auth.api.requestPasswordReset({ body: { email, redirectTo: "/reset-password" } });
        return { ok: true as const };
      }),
    )
    .openapi(...staffAnswer(financial, (c) => finance.financial(db(c))))
    .openapi(
      ...staffAnswer(rate, async (c, actor) => {
        await finance.setRate(db(c), actor, c.req.valid("param").currency, c.req.valid("json").rate);
        return { ok: true as const };
      }),
    )
    .openapi(...staffAnswer(analytics, (c) => admin.analytics(db(c), c.get("deps").env)))
    .openapi(
      ...staffAnswer(recalculate, async (c, actor) => {
        const metrics = await admin.recalculateMetrics(db(c));
        await admin.recordAudit(db(c), actor, "metrics_recalculated", undefined, `Metrics of ${metrics.metricDate}`);
        return { metrics };
      }),
    )
    .openapi(
      ...staffAnswer(tickets, async (c) => ({
        tickets: await staffTickets.allTickets(db(c), c.req.valid("query")),
        openCount: await staffTickets.openTicketCount(db(c)),
      })),
    )
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
    .openapi(
      ...staffAnswer(respond, async (c, actor) => {
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
        return { ticket: change.ticket };
      }),
    )
    .openapi(...staffAnswer(close, setTicketStatus("close")))
    .openapi(...staffAnswer(reopen, setTicketStatus("reopen")))
    .openapi(...staffAnswer(system, (c) => systemHealth(c.get("deps"))))
    .openapi(...staffAnswer(audit, async (c) => ({ entries: await admin.auditLog(db(c)) })));
}
