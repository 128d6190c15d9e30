import { beforeAll, describe, expect, it } from "vitest";
import { supportTickets } from "../../../db/schema/index.ts";
import { apiClient, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor, createStaff, type TestAuthor, type TestUser } from "../../../testing/users.ts";

startFileServer();
let author: TestAuthor;
let other: TestAuthor;
let adminUser: TestUser;

beforeAll(async () => {
  author = await createAuthor(s, { name: "Ada Writer" });
  other = await createAuthor(s, { name: "Bob Novelist", tier: "midi" });
  ({ admin: adminUser } = await createStaff(s));
});

/** By path, for bad input and the event stream (not JSON). */
const rawGet = (path: string, cookie?: string) => s.api(path, cookie ? { cookie } : {});
const rawPost = (path: string, cookie: string, json?: unknown) =>
  s.api(path, { method: "POST", cookie, ...(json === undefined ? {} : { json }) });

describe("support tickets", () => {
  it("an author files a ticket; staff answer (mailed); the author sees it and replies, which reopens it", async () => {
    const filed = await readJson(
      apiClient(s, author).support.tickets.$post({
        json: {
          subject: "My cover will not upload",
          message: "It says the file is damaged.",
          priority: "high",
        },
      }),
    );
    expect(filed.status).toBe(201);
    const { ticket } = filed.body;
    expect(ticket).toMatchObject({ status: "open", priority: "high", email: author.email, messages: [] });

    const list = (
      await readJson(apiClient(s, adminUser).admin.tickets.$get({ query: { status: "open", priority: "high" } }))
    ).body;
    expect(list.tickets[0].id).toBe(ticket.id);
    expect(list.openCount).toBeGreaterThanOrEqual(1);

    const respond = (response: string) =>
      readJson(
        apiClient(s, adminUser).admin.tickets[":id"].respond.$post({ param: { id: ticket.id }, json: { response } }),
      );
    const blank = await respond("  ");
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toBe("Please write a response");

    const answered = await respond("Try a PNG under 10 MB.");
    expect(answered.status).toBe(200);
    expect(answered.body.ticket).toMatchObject({
      status: "responded",
      adminResponse: "Try a PNG under 10 MB.",
    });
    const mail = await s.smtp.waitFor(author.email, "Re: My cover will not upload");
    expect(mail.text).toContain("Try a PNG under 10 MB.");
    // Respond only from open.
    expect((await respond("x")).status).toBe(409);

    const mine = (await readJson(apiClient(s, author).support.tickets.$get())).body;
    expect(mine.tickets[0]).toMatchObject({ id: ticket.id, status: "responded" });
    expect(mine.tickets[0].messages).toMatchObject([{ fromStaff: true, body: "Try a PNG under 10 MB." }]);

    const replied = await readJson(
      apiClient(s, author).support.tickets[":id"].replies.$post({
        param: { id: ticket.id },
        json: { message: "Still no." },
      }),
    );
    expect(replied.status).toBe(200);
    expect(replied.body.ticket.status).toBe("open");

    expect(
      (await readJson(apiClient(s, adminUser).admin.tickets[":id"].close.$post({ param: { id: ticket.id } }))).status,
    ).toBe(200);
    expect(
      (await readJson(apiClient(s, adminUser).admin.tickets[":id"].close.$post({ param: { id: ticket.id } }))).status,
    ).toBe(409);
    expect(
      (await readJson(apiClient(s, adminUser).admin.tickets[":id"].reopen.$post({ param: { id: ticket.id } }))).status,
    ).toBe(200);
  });

  it("another author can neither see nor reply to a ticket; bad input changes nothing", async () => {
    const { ticket } = (
      await readJson(apiClient(s, author).support.tickets.$post({ json: { subject: "Private", message: "Mine only" } }))
    ).body;
    const theirs = (await readJson(apiClient(s, other).support.tickets.$get())).body;
    expect(theirs.tickets.some((t: { id: string }) => t.id === ticket.id)).toBe(false);
    const reply = await readJson(
      apiClient(s, other).support.tickets[":id"].replies.$post({ param: { id: ticket.id }, json: { message: "hi" } }),
    );
    expect(reply.status).toBe(404);
    expect(reply.body.error.message).toBe("Ticket not found");
    const before = await s.database.db.select().from(supportTickets);
    // Bad input (an unknown priority among them), sent by path.
    for (const body of [
      { subject: "", message: "x" },
      { subject: "x", message: "" },
      { subject: "x", message: "y", priority: "asap" },
    ]) {
      expect((await rawPost("/api/support/tickets", author.cookie, body)).status).toBe(400);
    }
    expect(await s.database.db.select().from(supportTickets)).toHaveLength(before.length);
    expect((await readJson(apiClient(s).support.tickets.$get())).status).toBe(401);
  });

  it("pushes the open count to an admin's event stream when an author files a ticket", async () => {
    const controller = new AbortController();
    const res = await fetch(`${s.url}/api/admin/tickets/events`, {
      headers: { cookie: adminUser.cookie },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    if (!res.body) throw new Error("no stream");
    const reader = res.body.getReader();
    const counts: number[] = [];
    let buffer = "";
    const nextCount = async () => {
      for (;;) {
        const m = /data: (\{[^\n]*\})\n/.exec(buffer);
        if (m) {
          buffer = buffer.slice((m.index ?? 0) + m[0].length);
          const n = JSON.parse(m[1] ?? "{}").open as number;
          counts.push(n);
          return n;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        buffer += new TextDecoder().decode(value);
      }
    };
    const first = await nextCount();
    await readJson(apiClient(s, other).support.tickets.$post({ json: { subject: "Live", message: "Count me" } }));
    expect(await nextCount()).toBe(first + 1);
    controller.abort();
    // Authors cannot open the stream.
    // An event stream, not JSON: by path.
    expect((await rawGet("/api/admin/tickets/events", author.cookie)).status).toBe(403);
  });
});
