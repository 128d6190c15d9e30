// Support tickets as their authors see them: every read and write is scoped to the owner. The
// back office's cross-tenant reads are in admin.queries.ts.
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { supportTicketMessages, supportTickets } from "../../../db/schema/index.ts";

type Q = Db | Tx;

export type TicketRow = typeof supportTickets.$inferSelect;
export type TicketMessageRow = typeof supportTicketMessages.$inferSelect;

export async function insertTicket(db: Q, values: typeof supportTickets.$inferInsert): Promise<TicketRow> {
  const [row] = await db.insert(supportTickets).values(values).returning();
  if (!row) throw new Error("ticket insert returned nothing");
  return row;
}

export async function selectTicketsOfUser(db: Q, userId: string): Promise<TicketRow[]> {
  return db
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.userId, userId))
    .orderBy(desc(supportTickets.createdAt), desc(supportTickets.id));
}

export async function findTicketOfUser(db: Q, userId: string, ticketId: string): Promise<TicketRow | null> {
  const [row] = await db
    .select()
    .from(supportTickets)
    .where(and(eq(supportTickets.id, ticketId), eq(supportTickets.userId, userId)))
    .for("update");
  return row ?? null;
}

export async function reopenTicketOfUser(db: Q, userId: string, ticketId: string) {
  await db
    .update(supportTickets)
    .set({ status: "open" })
    .where(and(eq(supportTickets.id, ticketId), eq(supportTickets.userId, userId)));
}

/** The messages under these tickets (which the caller has already scoped), oldest first. */
export async function selectMessagesOf(db: Q, ticketIds: string[]): Promise<TicketMessageRow[]> {
  if (ticketIds.length === 0) return [];
  return db
    .select()
    .from(supportTicketMessages)
    .where(inArray(supportTicketMessages.ticketId, ticketIds))
    .orderBy(asc(supportTicketMessages.createdAt), asc(supportTicketMessages.id));
}

export async function insertMessage(db: Q, values: typeof supportTicketMessages.$inferInsert) {
  await db.insert(supportTicketMessages).values(values);
}
