// Help for authors: their own tickets only (another author's id answers 404 'Ticket not found').
//
// GET  /api/support/tickets               → 200 { tickets } newest first, with the conversation
// POST /api/support/tickets               newTicketSchema → 201 { ticket }; 429 + Retry-After past 5 an hour
// POST /api/support/tickets/:id/replies   { message } → 200 { ticket } (open again); 429 past 20 an hour
import { z } from "zod";
import { newTicketSchema, ticketReplySchema, ticketSchema } from "../../../shared/schemas/admin.ts";
import { idParam } from "../../http/ids.ts";
import { apiRoute, apiRouter, errors, idParams, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import * as support from "./support.service.ts";

const ticketId = (raw: string) => idParam(raw, support.ticketNotFound);

const tags = ["Support"];

const list = apiRoute({
  method: "get",
  path: "/support/tickets",
  tags,
  summary: "The author's tickets, newest first, with staff answers",
  responses: { 200: json(z.object({ tickets: z.array(ticketSchema) }), "The tickets") },
});
const create = apiRoute({
  method: "post",
  path: "/support/tickets",
  tags,
  summary: "Ask for help (subject, message, priority)",
  request: { body: jsonBody(newTicketSchema) },
  responses: { 201: json(z.object({ ticket: ticketSchema }), "The new ticket"), ...errors(400, 415, 429) },
});
const reply = apiRoute({
  method: "post",
  path: "/support/tickets/{id}/replies",
  tags,
  summary: "Reply to a ticket (reopens it)",
  request: { params: idParams, body: jsonBody(ticketReplySchema) },
  responses: { 200: json(z.object({ ticket: ticketSchema }), "The ticket"), ...errors(400, 404, 415, 429) },
});

export function supportRoutes() {
  return apiRouter()
    .openapi(list, async (c) => {
      const me = await requireUser(c);
      return c.json({ tickets: await support.listMyTickets(c.get("deps").database.db, me.id) }, 200);
    })
    .openapi(create, async (c) => {
      const me = await requireUser(c);
      const who = { userId: me.id, name: me.name, email: me.email };
      return c.json({ ticket: await support.fileTicket(c.get("deps").database.db, who, c.req.valid("json")) }, 201);
    })
    .openapi(reply, async (c) => {
      const me = await requireUser(c);
      const id = ticketId(c.req.valid("param").id);
      const ticket = await support.replyToMyTicket(c.get("deps").database.db, me.id, id, c.req.valid("json").message);
      return c.json({ ticket }, 200);
    });
}
