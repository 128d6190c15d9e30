// Help for authors: their own tickets only (another author's id answers 404 'Ticket not found').
//
// GET  /api/support/tickets               → 200 { tickets } newest first, with the conversation
// POST /api/support/tickets               newTicketSchema → 201 { ticket }; 429 + Retry-After past 5 an hour
// POST /api/support/tickets/:id/replies   { message } → 200 { ticket } (open again); 429 past 20 an hour
import { z } from "zod";
import { newTicketSchema, ticketReplySchema, ticketSchema } from "../../../shared/schemas/admin.ts";
import { answer, db } from "../../http/handlers.ts";
import { idParam } from "../../http/ids.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import * as support from "./support.service.ts";

const ticketId = (raw: string) => idParam(raw, support.ticketNotFound);

const route = routes({ tags: ["Support"] });

const list = route.get("/support/tickets", {
  summary: "The author's tickets, newest first, with staff answers",
  ok: { 200: json(z.object({ tickets: z.array(ticketSchema) }), "The tickets") },
});
const create = route.post("/support/tickets", {
  summary: "Ask for help (subject, message, priority)",
  body: newTicketSchema,
  ok: { 201: json(z.object({ ticket: ticketSchema }), "The new ticket") },
  errors: [429],
});
const reply = route.post("/support/tickets/{id}/replies", {
  summary: "Reply to a ticket (reopens it)",
  body: ticketReplySchema,
  ok: { 200: json(z.object({ ticket: ticketSchema }), "The ticket") },
  errors: [429],
});

export function supportRoutes() {
  return apiRouter()
    .openapi(...answer(list, async (c, me) => ({ tickets: await support.listMyTickets(db(c), me.id) })))
    .openapi(
      ...answer(create, async (c, me) => {
        const who = { userId: me.id, name: me.name, email: me.email };
        return { ticket: await support.fileTicket(db(c), who, c.req.valid("json")) };
      }),
    )
    .openapi(
      ...answer(reply, async (c, me) => {
        const id = ticketId(c.req.valid("param").id);
        return { ticket: await support.replyToMyTicket(db(c), me.id, id, c.req.valid("json").message) };
      }),
    );
}
