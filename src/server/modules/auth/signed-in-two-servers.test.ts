// Two server processes on one PostgreSQL database (ADR 093): what one keeps of a session, the
// other's change makes it forget as soon as PostgreSQL's notice reaches it.
import { describe, expect, it } from "vitest";
import { a, author, b, onPostgres, startTwoServers } from "../../../testing/two-servers.ts";

startTwoServers();

describe.skipIf(!onPostgres)("a session kept by one server", () => {
  it("is signed out on the other once it signs out on one", async () => {
    const onB = async () => (await b.api("/api/profile", { cookie: author.cookie })).status;
    expect(await onB()).toBe(200);
    expect(await onB()).toBe(200);
    const out = await a.api("/api/auth/sign-out", { method: "POST", cookie: author.cookie, json: {} });
    expect(out.status).toBe(200);
    await expect.poll(onB, { timeout: 5000, interval: 20 }).toBe(401);
  });
});
