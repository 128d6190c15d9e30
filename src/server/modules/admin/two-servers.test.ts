// Two servers on one PostgreSQL database (as two app processes behind a proxy would be): a
// ticket filed through one reaches the open admin event stream served by the other, because
// the count travels by NOTIFY, not by memory. Each server has its own pool, LISTEN connection
// and ticket feed; only the database is shared. PGlite is one process's database: skipped there.
import { beforeAll, describe, expect, it } from "vitest";
import { setRole } from "../../../app/cli/admin.ts";
import type { TestServer } from "../../../testing/test-server.ts";
import { a, author, b, onPostgres, startTwoServers } from "../../../testing/two-servers.ts";
import { createSignedInUser, type TestUser } from "../../../testing/users.ts";

startTwoServers();
let staff: TestUser;

beforeAll(async () => {
  if (!onPostgres) return;
  staff = await createSignedInUser(a, { prefix: "two-servers-staff" });
  await setRole(a.database.db, staff.email, "admin");
});

/** The `open` of each `open-count` event on an admin event stream, as they arrive. */
async function openCounts(server: TestServer, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/api/admin/tickets/events`, { headers: { cookie }, signal: controller.signal });
  expect(res.status).toBe(200);
  if (!res.body) throw new Error("no stream");
  const reader = res.body.getReader();
  let buffer = "";
  return {
    async next(): Promise<number> {
      for (;;) {
        const m = /data: (\{[^\n]*\})\n/.exec(buffer);
        if (m) {
          buffer = buffer.slice((m.index ?? 0) + m[0].length);
          return JSON.parse(m[1] ?? "{}").open as number;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        buffer += new TextDecoder().decode(value);
      }
    },
    close: () => controller.abort(),
  };
}

describe.skipIf(!onPostgres)("two servers on one PostgreSQL", () => {
  it("a ticket filed through one server reaches the admin stream served by the other", async () => {
    const stream = await openCounts(b, staff.cookie);
    const first = await stream.next();
    const filed = await a.api("/api/support/tickets", {
      method: "POST",
      cookie: author.cookie,
      json: { subject: "Across processes", message: "Hello from server A" },
    });
    expect(filed.status).toBe(201);
    expect(await stream.next()).toBe(first + 1);
    stream.close();
  });
});
