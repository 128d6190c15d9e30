// Tickets are limited (ADR 049): an author's Help tickets and replies per hour, and the marketing
// contact form's tickets per sender address, each refused with a 429 that says when to try again
// and files nothing. Counted in PostgreSQL, so every process counts the same tickets.
import { eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { supportTicketMessages, supportTickets } from "../../../db/schema/index.ts";
import { apiClient } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor } from "../../../testing/users.ts";
import { TICKET_LIMITS } from "./support.service.ts";

startFileServer();

const ticket = (cookie: string, n: number) =>
  apiClient(s, { cookie: cookie }).support.tickets.$post({
    json: { subject: `Question ${n}`, message: "How do I add a book to a series?", priority: "normal" },
  });

describe("Help tickets", () => {
  it(`takes ${TICKET_LIMITS.perAuthor} tickets an hour from an author, then answers 429 with Retry-After and files nothing`, async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    for (let i = 0; i < TICKET_LIMITS.perAuthor; i++) expect((await ticket(a.cookie, i)).status).toBe(201);
    const refused = await ticket(a.cookie, 99);
    expect(refused.status).toBe(429);
    const retry = Number(refused.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(3000);
    expect(retry).toBeLessThanOrEqual(3600);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.message).toMatch(/try again in \d+ minutes/);
    const rows = await s.database.db.select().from(supportTickets).where(eq(supportTickets.userId, a.id));
    expect(rows.map((r) => r.subject).sort()).toEqual(
      Array.from({ length: TICKET_LIMITS.perAuthor }, (_, i) => `Question ${i}`).sort(),
    );
    // Another author is not held back by the first.
    expect((await ticket(b.cookie, 1)).status).toBe(201);
  });

  it(`takes ${TICKET_LIMITS.repliesPerAuthor} replies an hour, then 429 and nothing added`, async () => {
    const a = await createAuthor(s);
    const made = await ticket(a.cookie, 1);
    const { ticket: t } = (await made.json()) as { ticket: { id: string } };
    const reply = (n: number) =>
      apiClient(s, a).support.tickets[":id"].replies.$post({ param: { id: t.id }, json: { message: `More ${n}` } });
    for (let i = 0; i < TICKET_LIMITS.repliesPerAuthor; i++) expect((await reply(i)).status).toBe(200);
    const refused = await reply(99);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const messages = await s.database.db
      .select()
      .from(supportTicketMessages)
      .where(eq(supportTicketMessages.ticketId, t.id));
    expect(messages.filter((m) => m.body.startsWith("More "))).toHaveLength(TICKET_LIMITS.repliesPerAuthor);
  });
});

describe("the marketing contact form", () => {
  const contact = (email: string, n: number) =>
    s.api("/contact", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        name: "Reader",
        email,
        subject: `Hello ${n}`,
        message: "I would like to know more about Bookplate for my books.",
      }).toString(),
    });

  it(`files ${TICKET_LIMITS.perAddress} tickets an hour for one sender address, then says when to try again`, async () => {
    const anonymous = async () =>
      (await s.database.db.select().from(supportTickets).where(isNull(supportTickets.userId))).length;
    const before = await anonymous();
    for (let i = 0; i < TICKET_LIMITS.perAddress; i++) expect((await contact("Same@Example.com", i)).status).toBe(200);
    const refused = await contact("same@example.com", 99);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(/try again in \d+ minutes/);
    expect(await anonymous()).toBe(before + TICKET_LIMITS.perAddress);
    // Another sender (still within the address's own allowance of 5 per 10 minutes) gets through.
    expect((await contact("other@example.com", 1)).status).toBe(200);
    expect(await anonymous()).toBe(before + TICKET_LIMITS.perAddress + 1);
  });
});
