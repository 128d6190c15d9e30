// The back office's Admin Actions (spec: System Settings): Refresh Analytics, Database
// Maintenance with its backups (ADR 046), and Generate Reports. Behind the same staff gate as
// every admin route; maintenance and backup downloads for a super admin only; each audited.
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { z } from "zod";
import {
  backupsSchema,
  maintenanceResultSchema,
  REPORT_KINDS,
  refreshAnalyticsSchema,
  reportQuerySchema,
} from "../../../shared/schemas/back-office-actions.ts";
import { apiRouter, fileAnswer, json } from "../../http/openapi.ts";
import { requireStaff } from "./admin.guard.ts";
import { adminRoute, staffAnswer } from "./admin.routes.ts";
import { recordAudit } from "./admin.service.ts";
import { backupFile, listBackups } from "./backups.ts";
import { refreshAnalytics, requireSuperAdmin, runMaintenance } from "./maintenance.ts";
import { monthlyReport } from "./reports.ts";

const refresh = adminRoute.post("/admin/actions/refresh-analytics", {
  summary: "Write the buffered visit counts and recompute today's metrics",
  ok: { 200: json(refreshAnalyticsSchema, "Today's metrics") },
});
const maintenance = adminRoute.post("/admin/actions/maintenance", {
  summary: "VACUUM (ANALYZE), then a backup of the database and uploads (super admin only)",
  ok: { 200: json(maintenanceResultSchema, "What ran and the new backup") },
  errors: [409, 500],
});
const backups = adminRoute.get("/admin/backups", {
  summary: "The backups kept in DATA_DIR/backups, newest first",
  ok: { 200: json(backupsSchema, "The backups") },
});
// A name that is no backup's is a 404.
const download = adminRoute.get("/admin/backups/{name}", {
  summary: "Download a backup (super admin only: it holds every password hash)",
  ok: { 200: fileAnswer("application/gzip", "The backup") },
});
const report = adminRoute.get("/admin/reports/{kind}", {
  summary: "A month's revenue or subscriptions as CSV (default: this month, UTC)",
  params: z.object({ kind: z.enum(REPORT_KINDS) }),
  query: reportQuerySchema,
  ok: { 200: { description: "The report", content: { "text/csv": { schema: { type: "string" } } } } },
});

export function adminActionsRoutes() {
  return apiRouter()
    .openapi(
      ...staffAnswer(refresh, async (c, actor) => {
        const { database, visits } = c.get("deps");
        return { metrics: await refreshAnalytics({ database, flushVisits: () => visits.flush() }, actor) };
      }),
    )
    .openapi(
      ...staffAnswer(maintenance, (c, actor) => {
        const { database, storage, env } = c.get("deps");
        const { dataDir, databaseUrl, backupKeep: keep } = env;
        return runMaintenance({ database, storage, dataDir, databaseUrl, keep }, actor);
      }),
    )
    .openapi(
      ...staffAnswer(backups, async (c) => {
        const { database, env } = c.get("deps");
        const list = await listBackups(env.dataDir);
        return { backups: list, keep: env.backupKeep, database: database.kind, includesUploads: env.s3 === null };
      }),
    )
    .openapi(download, async (c) => {
      const actor = await requireStaff(c);
      requireSuperAdmin(actor);
      const { database, env } = c.get("deps");
      const name = c.req.valid("param").name;
      const file = await backupFile(env.dataDir, name);
      await recordAudit(database.db, actor, "backup_downloaded", name);
      const body = Readable.toWeb(createReadStream(file.path)) as ReadableStream<Uint8Array>;
      return c.body(body, 200, {
        "Content-Type": "application/gzip",
        "Content-Length": String(file.sizeBytes),
        "Content-Disposition": `attachment; filename="${name}"`,
        "Cache-Control": "no-store",
      });
    })
    .openapi(report, async (c) => {
      const actor = await requireStaff(c);
      const { kind } = c.req.valid("param");
      const { month } = c.req.valid("query");
      const { filename, csv } = await monthlyReport(c.get("deps").database.db, actor, kind, month);
      return c.body(csv, 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${filename}"`,
        "Cache-Control": "no-store",
      });
    });
}
