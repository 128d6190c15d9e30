// Admin Actions' Refresh Analytics and Database Maintenance (ADR 046).
import { sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import type { SystemMetrics } from "../../../shared/schemas/admin.ts";
import { ADMIN_ACTION_MESSAGES, type MaintenanceResult } from "../../../shared/schemas/back-office-actions.ts";
import { forbiddenError } from "../../lib/domain-error.ts";
import type { Storage } from "../../lib/storage.ts";
import type { Staff } from "./admin.service.ts";
import { recalculateMetrics, recordAudit } from "./admin.service.ts";
import { createBackup } from "./backups.ts";

/**
 * The rollups are the visit counts (buffered in each process, written every few seconds) and
 * the daily metrics row: this process's buffer is written now, then the metrics are recomputed.
 */
export async function refreshAnalytics(
  deps: { database: Database; flushVisits: () => Promise<void> },
  actor: Staff,
): Promise<SystemMetrics> {
  await deps.flushVisits();
  const metrics = await recalculateMetrics(deps.database.db);
  await recordAudit(deps.database.db, actor, "analytics_refreshed", undefined, `Analytics of ${metrics.metricDate}`);
  return metrics;
}

const MAINTENANCE = "VACUUM (ANALYZE)";

/**
 * VACUUM (ANALYZE): dead rows' space back for reuse and fresh planner statistics, on PGlite and
 * PostgreSQL alike; it takes no lock that stops reads or writes. Then a backup. Super admin only:
 * a backup holds every account's password hash, and each new one pushes the oldest out.
 */
export async function runMaintenance(
  deps: { database: Database; storage: Storage; dataDir: string; databaseUrl: string | undefined; keep: number },
  actor: Staff,
): Promise<MaintenanceResult> {
  if (actor.role !== "super_admin") throw forbiddenError(ADMIN_ACTION_MESSAGES.backupSuperAdminOnly);
  const started = performance.now();
  await deps.database.db.execute(sql.raw(MAINTENANCE));
  const durationMs = Math.round(performance.now() - started);
  const backup = await createBackup(deps);
  await recordAudit(
    deps.database.db,
    actor,
    "maintenance_run",
    `${MAINTENANCE}; backup ${backup.name} (${backup.sizeBytes} bytes)`,
    "Database",
  );
  return { maintenance: { statement: MAINTENANCE, durationMs }, backup };
}

export function requireSuperAdmin(actor: Staff) {
  if (actor.role !== "super_admin") throw forbiddenError(ADMIN_ACTION_MESSAGES.backupSuperAdminOnly);
}
