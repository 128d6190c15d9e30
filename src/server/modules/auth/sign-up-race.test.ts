// Several sign-ups for one new address at once (a double click, or someone probing which
// addresses exist): every racer gets the answer a new address gets, and one account exists —
// in one process (which takes them in turn) and across two processes on one PostgreSQL database
// (where the losers of the insert are answered as a taken address; PGlite is one process's
// database, so that half is skipped there).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, user } from "../../../db/schema/index.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";

const onPostgres = Boolean(process.env.DATABASE_URL);
let s: TestServer;
let second: TestServer | undefined;
beforeAll(async () => {
  s = await startTestServer();
  if (onPostgres) second = await startTestServer({}, { sharedDatabaseUrl: s.databaseUrl });
});
afterAll(async () => {
  await second?.close();
  await s?.close();
});

const RACERS = 8;

/** The answer without what differs between any two new accounts (id and times). */
function shape(body: { token?: unknown; user?: Record<string, unknown> }) {
  const { id, createdAt, updatedAt, ...rest } = body.user ?? {};
  return { token: body.token, user: rest, hasId: typeof id === "string", dated: [createdAt, updatedAt].every(Boolean) };
}

async function race(servers: TestServer[], label: string) {
  for (let round = 0; round < 3; round++) {
    const email = `racer-${label}-${round}-${Date.now().toString(36)}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        (servers[i % servers.length] ?? s).api("/api/auth/sign-up/email", {
          method: "POST",
          json: { name: "Racing Reader", email, password: `correct horse battery ${i}` },
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(statuses).toEqual(Array(RACERS).fill(200));
    const shapes = bodies.map(shape);
    for (const one of shapes) expect(one).toEqual(shapes[0]);
    expect(shapes[0]).toMatchObject({ token: null, user: { email, emailVerified: false }, hasId: true, dated: true });

    const rows = await s.database.db.select().from(user).where(eq(user.email, email));
    expect(rows).toHaveLength(1);
    const id = rows[0]?.id ?? "";
    expect(await s.database.db.select().from(account).where(eq(account.userId, id))).toHaveLength(1);
    // One answer names the real account; the others are the made-up ones a taken address gets.
    expect(bodies.filter((b) => b.user.id === id)).toHaveLength(1);
    // The account's owner is asked to confirm it once.
    await Promise.any(servers.map((x) => x.smtp.waitFor(email, "Confirm your email")));
    // Two processes on one database share one mail server (test-server.ts): count each server once.
    const catchers = [...new Set(servers.map((x) => x.smtp))];
    const confirmations = catchers.flatMap((c) =>
      c.mails.filter((m) => m.to.includes(email) && m.subject.includes("Confirm your email")),
    );
    expect(confirmations).toHaveLength(1);
  }
}

describe("racing sign-ups for one address", () => {
  it("answer every racer like a new sign-up and leave exactly one account (one process)", async () => {
    await race([s], "one");
  }, 120_000); // 24 password hashes taken in turn: seconds on a busy machine

  it.skipIf(!onPostgres)(
    "do the same when the racers reach two processes on one database",
    async () => {
      await race([s, second as TestServer], "two");
    },
    120_000,
  );
});
