// Once a day: the system metrics row (the spec's calculate_daily_metrics), the same work as the
// back office's Recalculate Metrics. One process does it: a transaction-scoped advisory lock.
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { Logger } from "../lib/logger.ts";
import { recalculateMetrics } from "../modules/admin/admin.service.ts";
import { scheduleJob } from "./schedule.ts";

/** Fixed key for pg_try_advisory_xact_lock, unique among Bookplate's jobs. */
export const DAILY_METRICS_LOCK = 727_003;

/** True when this process ran it; false when another process held the lock. */
export async function runDailyMetrics(db: Db, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const res = await tx.execute(sql`select pg_try_advisory_xact_lock(${DAILY_METRICS_LOCK}) as ok`);
    if ((res as unknown as { rows?: { ok: boolean }[] }).rows?.[0]?.ok !== true) return false;
    await recalculateMetrics(tx, now);
    return true;
  });
}

export function startDailyMetrics(opts: { db: Db; logger: Logger; pattern?: string }) {
  return scheduleJob({
    name: "daily-metrics",
    pattern: opts.pattern ?? "5 0 * * *",
    logger: opts.logger,
    run: async () => {
      if (await runDailyMetrics(opts.db)) opts.logger.info("daily metrics computed");
    },
  });
}
