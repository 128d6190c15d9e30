// The back office's Admin Actions (spec: System Settings): Refresh Analytics, Database
// Maintenance (which takes a backup, ADR 046) and Generate Reports (a month as CSV).
import { z } from "zod";
import { systemMetricsSchema } from "./admin.ts";
import { namedObject } from "./fragments.ts";

export const ADMIN_ACTION_MESSAGES = {
  analyticsRefreshed: "Analytics refreshed",
  analyticsFailed: "Failed to refresh analytics",
  maintenanceDone: "Database maintenance finished and a backup was taken",
  maintenanceFailed: "Database maintenance failed",
  backupSuperAdminOnly: "Only a super admin can run database maintenance, take backups or download them",
  backupRunning: "A backup is already being taken; try again when it has finished",
  backupNotFound: "Backup not found",
  monthInvalid: "Choose a month as YYYY-MM",
} as const;

/** Backup files are named by the time they were taken; nothing else in DATA_DIR/backups is served. */
export const BACKUP_NAME = /^bookplate-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.tar\.gz$/;

export const backupSchema = namedObject("Backup", { name: z.string(), sizeBytes: z.number(), createdAt: z.string() });
export type Backup = z.infer<typeof backupSchema>;

export const backupsSchema = namedObject("Backups", {
  backups: z.array(backupSchema),
  /** How many are kept (BACKUP_KEEP). */
  keep: z.number(),
  database: z.enum(["pglite", "postgres"]),
  /** False when uploads live in an S3 bucket, which a backup does not copy. */
  includesUploads: z.boolean(),
});
export type Backups = z.infer<typeof backupsSchema>;

export const maintenanceResultSchema = namedObject("MaintenanceResult", {
  /** What ran: VACUUM (ANALYZE) on either database. */
  maintenance: z.object({ statement: z.string(), durationMs: z.number() }),
  backup: backupSchema,
});
export type MaintenanceResult = z.infer<typeof maintenanceResultSchema>;

export const refreshAnalyticsSchema = namedObject("AnalyticsRefreshed", { metrics: systemMetricsSchema });

export const REPORT_KINDS = ["revenue", "subscriptions"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const reportQuerySchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: ADMIN_ACTION_MESSAGES.monthInvalid })
    .refine((m) => m >= "2000-01" && m <= "9999-12", { error: ADMIN_ACTION_MESSAGES.monthInvalid })
    .optional(),
});

/** The current month as YYYY-MM (UTC), the reports' default. */
export const currentMonth = (now = new Date()) => now.toISOString().slice(0, 7);
