// Every few minutes: trials and cancelled subscriptions that have run out become expired, and
// sandbox subscriptions are charged when their trial or period ends (Stripe does its own).
// Exactly one process does the work: a transaction-scoped advisory lock on PostgreSQL (released
// by commit, so a crashed run never holds it), plus a process-local flag for overlapping ticks.
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { Logger } from "../lib/logger.ts";
import { expireDueSubscriptions } from "../modules/billing/billing.service.ts";
import { seedExchangeRates } from "../modules/billing/invoices.service.ts";
import { scheduleJob } from "./schedule.ts";

/** An arbitrary, fixed key for pg_try_advisory_xact_lock, unique among Bookplate's jobs. */
export const SUBSCRIPTION_EXPIRY_LOCK = 727_001;

export type ExpiryResult = Awaited<ReturnType<typeof expireDueSubscriptions>> | { skipped: true };

let running = false;

/** The job's work, callable directly (tests, admin CLI). */
export async function runSubscriptionExpiry(db: Db, now = new Date()): Promise<ExpiryResult> {
  if (running) return { skipped: true };
  running = true;
  try {
    return await db.transaction(async (tx) => {
      const res = await tx.execute(sql`select pg_try_advisory_xact_lock(${SUBSCRIPTION_EXPIRY_LOCK}) as ok`);
      if (!rowsOk(res)) return { skipped: true } as const;
      return expireDueSubscriptions(tx, now);
    });
  } finally {
    running = false;
  }
}

function rowsOk(v: unknown): boolean {
  const rows = (v as { rows?: { ok: boolean }[] } | undefined)?.rows;
  return rows?.[0]?.ok === true;
}

export function startScheduler(opts: { db: Db; logger: Logger; pattern?: string }) {
  seedExchangeRates(opts.db).catch((err) => opts.logger.warn({ err }, "seeding exchange rates failed"));
  return scheduleJob({
    name: "subscription-expiry",
    pattern: opts.pattern ?? "*/5 * * * *",
    logger: opts.logger,
    run: async () => {
      const result = await runSubscriptionExpiry(opts.db);
      if (
        !("skipped" in result) &&
        result.trialsExpired + result.trialsConverted + result.sandboxRenewals + result.cancelledExpired > 0
      ) {
        opts.logger.info(result, "subscriptions expired or renewed");
      }
    },
  });
}
