// Help for authors: file a ticket, read the answers, reply (which reopens it). Every change to a
// ticket tells every process through NOTIFY on `support_tickets`, so the back office's open
// count moves without a reload (admin/ticket-feed.ts).
import { sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import type { TicketPriority, TicketStatus } from "../../../shared/enums.ts";
import type { NewTicket, Ticket } from "../../../shared/schemas/admin.ts";
import { notFoundError, RateLimited, waitInWords } from "../../lib/domain-error.ts";
import { dbRateLimiter, type Limiter } from "../../lib/rate-limiter.ts";
import type { MailSender } from "../mail/mail.service.ts";
import * as q from "./support.queries.ts";

export const TICKETS_CHANNEL = "support_tickets";

export const ticketNotFound = () => notFoundError("Ticket not found");

/** Call inside the transaction that changes a ticket: the notice goes out on commit. */
export async function notifyTicketsChanged(db: Db | Tx): Promise<void> {
  await db.execute(sql`select pg_notify(${TICKETS_CHANNEL}, '')`);
}

/** Tickets with their conversations, in the shape both the author and staff see. */
export async function ticketViews(db: Db | Tx, rows: q.TicketRow[]): Promise<Ticket[]> {
  const messages = await q.selectMessagesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    userId: r.userId,
    name: r.name,
    email: r.email,
    subject: r.subject,
    message: r.message,
    priority: r.priority as TicketPriority,
    status: r.status as TicketStatus,
    adminResponse: r.adminResponse,
    respondedAt: r.respondedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    messages: messages
      .filter((m) => m.ticketId === r.id)
      .map((m) => ({ id: m.id, fromStaff: m.fromStaff, body: m.body, createdAt: m.createdAt.toISOString() })),
  }));
}

export async function addMessage(
  db: Db | Tx,
  ticketId: string,
  from: { staff: boolean; userId: string },
  body: string,
) {
  await q.insertMessage(db, { ticketId, fromStaff: from.staff, authorId: from.userId, body });
}

export async function listMyTickets(db: Db, userId: string): Promise<Ticket[]> {
  return ticketViews(db, await q.selectTicketsOfUser(db, userId));
}

const HOUR = 3600_000;
/**
 * Enough for a person with a real problem, not for a flood of the back office (ADR 049): per
 * author, and per sender address for the marketing form (which also limits each client address).
 */
export const TICKET_LIMITS = { perAuthor: 5, perAddress: 3, repliesPerAuthor: 20, windowMs: HOUR } as const;

async function allowTicket(db: Db, who: { userId: string | null; email: string }) {
  const a = who.userId
    ? await dbRateLimiter(db, "support-ticket", TICKET_LIMITS.perAuthor, TICKET_LIMITS.windowMs).attempt(who.userId)
    : await dbRateLimiter(db, "support-ticket-address", TICKET_LIMITS.perAddress, TICKET_LIMITS.windowMs).attempt(
        who.email.trim().toLowerCase(),
      );
  if (!a.allowed) {
    throw new RateLimited(
      `You have sent several messages to our support team in the last hour. Please try again ${waitInWords(a.retryAfterSeconds)}: we read every one.`,
      a.retryAfterSeconds,
    );
  }
}

/** A refused ticket's words and wait, for a page that shows them (the marketing form); null otherwise. */
export function ticketRefusal(err: unknown): { message: string; retryAfterSeconds: number } | null {
  return err instanceof RateLimited ? { message: err.message, retryAfterSeconds: err.retryAfterSeconds } : null;
}

/** Files a ticket; RateLimited (429) once the author or the sender address has sent enough this hour. */
export async function fileTicket(
  db: Db,
  who: { userId: string | null; name: string | null; email: string },
  input: NewTicket,
): Promise<Ticket> {
  await allowTicket(db, who);
  return db.transaction(async (tx) => {
    const row = await q.insertTicket(tx, {
      userId: who.userId,
      name: who.name,
      email: who.email,
      subject: input.subject,
      message: input.message,
      priority: input.priority,
      status: "open",
    });
    await notifyTicketsChanged(tx);
    const [view] = await ticketViews(tx, [row]);
    if (!view) throw new Error("ticket view missing");
    return view;
  });
}

/** The author answers staff (or adds to their own ticket): the ticket is open again. */
export async function replyToMyTicket(db: Db, userId: string, ticketId: string, message: string): Promise<Ticket> {
  const a = await dbRateLimiter(db, "support-reply", TICKET_LIMITS.repliesPerAuthor, TICKET_LIMITS.windowMs).attempt(
    userId,
  );
  if (!a.allowed) {
    throw new RateLimited(
      `You have sent many replies in the last hour. Please try again ${waitInWords(a.retryAfterSeconds)}.`,
      a.retryAfterSeconds,
      { field: "message" },
    );
  }
  return db.transaction(async (tx) => {
    const ticket = await q.findTicketOfUser(tx, userId, ticketId);
    if (!ticket) throw ticketNotFound();
    await addMessage(tx, ticketId, { staff: false, userId }, message);
    if (ticket.status !== "open") await q.reopenTicketOfUser(tx, userId, ticketId);
    await notifyTicketsChanged(tx);
    const [view] = await ticketViews(tx, [{ ...ticket, status: "open" }]);
    if (!view) throw new Error("ticket view missing");
    return view;
  });
}

/** What the marketing contact form's sender is told by mail: nothing they wrote comes back. */
export const MARKETING_CONTACT_REPLY = {
  subject: "We received your message to Bookplate",
  text:
    "Hello,\n\nThank you for writing to Bookplate. We have your message and will answer by email, " +
    "usually within two working days.\n\nIf you did not write to us, someone else entered this address " +
    "in the contact form on our website; you can ignore this mail and you will hear nothing more.\n\n" +
    "Bookplate support\n",
  automatic: true,
};

/**
 * The marketing site's contact form (someone without an account): a ticket for staff, and a fixed
 * acknowledgement to the address given. Anyone can type any address into the form, so the mail
 * carries none of the sender's words (no name, subject or message: it would be a free relay for
 * phishing, ADR 048), and one address gets at most `replies` allows (a day's worth) of them.
 */
export async function receiveMarketingContact(
  deps: { db: Db; mailer: MailSender; replies: Limiter },
  input: { name: string; email: string; subject: string; message: string },
): Promise<Ticket> {
  const ticket = await fileTicket(
    deps.db,
    { userId: null, name: input.name, email: input.email },
    { subject: input.subject, message: input.message, priority: "normal" },
  );
  if (await deps.replies.take(input.email.trim().toLowerCase())) {
    await deps.mailer.send({ to: input.email, ...MARKETING_CONTACT_REPLY });
  }
  return ticket;
}
