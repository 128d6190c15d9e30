// Support tickets as staff see them: every tenant's, answered (the author is mailed), closed and
// reopened, each change audited. The author's side is modules/support.
import type { Db } from "../../../db/client.ts";
import type { TicketPriority, TicketStatus } from "../../../shared/enums.ts";
import type { Ticket } from "../../../shared/schemas/admin.ts";
import { conflictError } from "../../lib/domain-error.ts";
import { addMessage, notifyTicketsChanged, ticketNotFound, ticketViews } from "../support/support.service.ts";
import * as q from "./admin.queries.ts";
import type { Staff } from "./staff.ts";

export async function allTickets(db: Db, filter: { status?: TicketStatus; priority?: TicketPriority }) {
  return ticketViews(db, await q.selectAllTickets(db, filter));
}

export const openTicketCount = (db: Db) => q.countOpenTickets(db);

type TicketChange = { ticket: Ticket; notify?: { to: string; subject: string; text: string } };

/** Respond is allowed only from open (the spec); the author is mailed the answer. */
export async function respondToTicket(
  db: Db,
  actor: Staff,
  ticketId: string,
  response: string,
  appOrigin: string,
): Promise<TicketChange> {
  return db.transaction(async (tx) => {
    const ticket = await q.findAnyTicket(tx, ticketId, true);
    if (!ticket) throw ticketNotFound();
    if (ticket.status !== "open") {
      throw conflictError("Only an open ticket can be answered; reopen it first");
    }
    const respondedAt = new Date();
    await q.updateAnyTicket(tx, ticketId, {
      status: "responded",
      adminResponse: response,
      respondedAt,
      respondedBy: actor.id,
    });
    await addMessage(tx, ticketId, { staff: true, userId: actor.id }, response);
    await q.insertAudit(tx, actor, "ticket_responded", {
      targetUserId: ticket.userId,
      target: `Ticket: ${ticket.subject}`,
    });
    await notifyTicketsChanged(tx);
    const [view] = await ticketViews(tx, [{ ...ticket, status: "responded", adminResponse: response, respondedAt }]);
    if (!view) throw new Error("ticket view missing");
    const where = ticket.userId
      ? `Read it and reply in your dashboard: ${appOrigin}/dashboard/help`
      : "Reply to this email to continue the conversation.";
    // A ticket from the marketing form names an address nobody confirmed: the answer carries
    // only staff's words there, not the sender's name or subject (ADR 048).
    const theirs = ticket.userId !== null;
    return {
      ticket: view,
      notify: {
        to: ticket.email,
        subject: theirs ? `Re: ${ticket.subject}` : "Bookplate support answered your message",
        text: theirs
          ? `Hello${ticket.name ? ` ${ticket.name}` : ""},\n\nOur support team answered your request "${ticket.subject}":\n\n${response}\n\n${where}\n`
          : `Hello,\n\nOur support team answered the message you sent through the contact form on our website:\n\n${response}\n\n${where}\n`,
      },
    };
  });
}

/** Close (unless already closed) or reopen (from closed). */
export async function setTicketStatus(db: Db, actor: Staff, ticketId: string, action: "close" | "reopen") {
  return db.transaction(async (tx): Promise<TicketChange> => {
    const ticket = await q.findAnyTicket(tx, ticketId, true);
    if (!ticket) throw ticketNotFound();
    if (action === "close" && ticket.status === "closed") {
      throw conflictError("This ticket is already closed");
    }
    if (action === "reopen" && ticket.status !== "closed") {
      throw conflictError("Only a closed ticket can be reopened");
    }
    const status = action === "close" ? "closed" : "open";
    await q.updateAnyTicket(tx, ticketId, { status });
    await q.insertAudit(tx, actor, action === "close" ? "ticket_closed" : "ticket_reopened", {
      targetUserId: ticket.userId,
      target: `Ticket: ${ticket.subject}`,
    });
    await notifyTicketsChanged(tx);
    const [view] = await ticketViews(tx, [{ ...ticket, status }]);
    if (!view) throw new Error("ticket view missing");
    return { ticket: view };
  });
}
