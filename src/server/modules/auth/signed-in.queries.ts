// The one read behind a signed-in API request: the session a cookie names and its user, in one
// round trip (Better Auth reads the two rows one after the other). Built once per database
// handle, so Drizzle does not assemble the SQL on every request (as the site context, ADR 040),
// its row made by a mapper built once (ADR 082).
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { prepareFlat } from "../../../db/prepared.ts";
import { session, user } from "../../../db/schema/index.ts";

const fields = { expiresAt: session.expiresAt, id: user.id, email: user.email, name: user.name, role: user.role };

function prepare(db: Db) {
  const query = db
    .select(fields)
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, sql.placeholder("token")));
  return prepareFlat<SignedInRow>(db, "signed_in_by_token", fields, query);
}

const prepared = new WeakMap<Db, ReturnType<typeof prepare>>();

export type SignedInRow = { expiresAt: Date; id: string; email: string; name: string; role: string | null };

/** The session with this token and its user, or undefined when there is none. */
export async function selectSignedIn(db: Db, token: string): Promise<SignedInRow | undefined> {
  let statement = prepared.get(db);
  if (!statement) {
    statement = prepare(db);
    prepared.set(db, statement);
  }
  const [row] = await statement.execute({ token });
  return row;
}
