// Fixed-window allowances per key: enough to stop one address flooding an author's inbox, our
// mailer or a public endpoint. Counted in PostgreSQL (ADR 031), so every app process behind the
// proxy counts the same attempts; one statement per attempt, on paths that are rare (forms, mail).
import { lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { requestLimits } from "../../db/schema/index.ts";

export interface Limiter {
  /** Counts one attempt; false once the key has used up its allowance for this window. */
  take(key: string): Promise<boolean>;
}

/** One counted attempt, and when a refused key may try again (for a 429's Retry-After). */
export type Attempt = { allowed: boolean; retryAfterSeconds: number };

export interface TimedLimiter extends Limiter {
  attempt(key: string): Promise<Attempt>;
}

/** A limiter whose counts live in `request_limits`, shared by every process on the database. */
export function dbRateLimiter(db: Db, name: string, max: number, windowMs: number): TimedLimiter {
  let calls = 0;
  const limiter: TimedLimiter = {
    take: async (key) => (await limiter.attempt(key)).allowed,
    async attempt(key) {
      const id = `${name}|${key}`.slice(0, 500);
      // One upsert: a new or expired window starts at 1, a running one counts on.
      const [row] = await db
        .insert(requestLimits)
        .values({ key: id, count: 1, resetAt: sql`now() + ${windowMs} * interval '1 millisecond'` })
        .onConflictDoUpdate({
          target: requestLimits.key,
          set: {
            count: sql`case when ${requestLimits.resetAt} <= now() then 1 else ${requestLimits.count} + 1 end`,
            resetAt: sql`case when ${requestLimits.resetAt} <= now() then excluded.reset_at else ${requestLimits.resetAt} end`,
          },
        })
        .returning({
          count: requestLimits.count,
          // The database's clock decides, the same for every process.
          wait: sql<number>`greatest(1, ceil(extract(epoch from ${requestLimits.resetAt} - now())))::int`,
        });
      // Now and then, windows that ended are swept (they would only be restarted at 1 anyway).
      if (++calls % 500 === 0)
        void db
          .delete(requestLimits)
          .where(lt(requestLimits.resetAt, sql`now()`))
          .catch(() => {});
      return { allowed: (row?.count ?? 1) <= max, retryAfterSeconds: Number(row?.wait ?? 1) };
    },
  };
  return limiter;
}

/** The same allowance in one process's memory: for tests of the code that consults a limiter. */
export class RateLimiter implements Limiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async take(key: string): Promise<boolean> {
    const now = this.now();
    const h = this.hits.get(key);
    if (!h || h.resetAt <= now) {
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      return true;
    }
    h.count++;
    return h.count <= this.max;
  }
}
