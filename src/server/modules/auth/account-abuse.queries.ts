// The counters behind the account abuse limits (ADR 015). They live in the database so every
// process sees the same count, and each change is one atomic statement or a locked row.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { accountMailQuota, signInFailures, user } from "../../../db/schema/index.ts";

export type FailureRow = typeof signInFailures.$inferSelect;

/**
 * Runs `decide` on the address's row with the row locked, so concurrent sign-ins for one address
 * (from any number of sources) are counted one after another, and stores what it returns.
 */
export async function updateSignInFailures<T>(
  db: Db,
  email: string,
  decide: (row: FailureRow) => { next: Omit<FailureRow, "email"> | null; result: T },
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.insert(signInFailures).values({ email }).onConflictDoNothing();
    const [row] = await tx.select().from(signInFailures).where(eq(signInFailures.email, email)).for("update");
    if (!row) throw new Error("sign_in_failures row vanished inside its own transaction");
    const { next, result } = decide(row);
    if (next) await tx.update(signInFailures).set(next).where(eq(signInFailures.email, email));
    return result;
  });
}

export async function deleteSignInFailures(db: Db, email: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.email, email));
}

/**
 * Counts one more mail of `kind` to `email` in a fixed window that starts with the first mail,
 * in one statement so two requests at once cannot both see the old count.
 */
export async function bumpMailQuota(db: Db, kind: string, email: string, now: Date, windowMs: number) {
  const nowIso = now.toISOString();
  const cutoff = new Date(now.getTime() - windowMs).toISOString();
  const expired = sql`${accountMailQuota.windowStart} <= ${cutoff}::timestamptz`;
  const [row] = await db
    .insert(accountMailQuota)
    .values({ kind, email, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: [accountMailQuota.kind, accountMailQuota.email],
      set: {
        count: sql`case when ${expired} then 1 else ${accountMailQuota.count} + 1 end`,
        windowStart: sql`case when ${expired} then ${nowIso}::timestamptz else ${accountMailQuota.windowStart} end`,
      },
    })
    .returning({ count: accountMailQuota.count });
  return row?.count ?? 1;
}

export async function selectAccountByEmail(db: Db, email: string) {
  const [row] = await db.select({ name: user.name, email: user.email }).from(user).where(eq(user.email, email));
  return row ?? null;
}
