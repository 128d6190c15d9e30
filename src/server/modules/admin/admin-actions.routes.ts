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
import { apiRouter, errors, json } from "../../http/openapi.ts";
import { requireStaff } from "./admin.guard.ts";
import { adminRoute } from "./admin.routes.ts";
import { recordAudit } from "./admin.service.ts";
import { backupFile, listBackups } from "./backups.ts";
import { refreshAnalytics, requireSuperAdmin, runMaintenance } from "./maintenance.ts";
import { monthlyReport } from "./reports.ts";

const refresh = adminRoute({
  method: "post",
  path: "/admin/actions/refresh-analytics",
  summary: "Write the buffered visit counts and recompute today's metrics",
  responses: { 200: json(refreshAnalyticsSchema, "Today's metrics") },
});
const maintenance = adminRoute({
  method: "post",
  path: "/admin/actions/maintenance",
  summary: "VACUUM (ANALYZE), then a backup of the database and uploads (super admin only)",
  responses: { 200: json(maintenanceResultSchema, "What ran and the new backup"), ...errors(409, 500) },
});
const backups = adminRoute({
  method: "get",
  path: "/admin/backups",
  summary: "The backups kept in DATA_DIR/backups, newest first",
  responses: { 200: json(backupsSchema, "The backups") },
});
const download = adminRoute({
  method: "get",
  path: "/admin/backups/{name}",
  summary: "Download a backup (super admin only: it holds every password hash)",
  request: { params: z.object({ name: z.string() }) },
  responses: {
    200: {
      description: "The backup",
      content: { "application/gzip": { schema: { type: "string", format: "binary" } } },
    },
    ...errors(404),
  },
});
const report = adminRoute({
  method: "get",
  path: "/admin/reports/{kind}",
  summary: "A month's revenue or subscriptions as CSV (default: this month, UTC)",
  request: { params: z.object({ kind: z.enum(REPORT_KINDS) }), query: reportQuerySchema },
  responses: {
    200: { description: "The report", content: { "text/csv": { schema: { type: "string" } } } },
    ...errors(400),
  },
});

export function adminActionsRoutes() {
  return apiRouter()
    .openapi(refresh, async (c) => {
      const actor = await requireStaff(c);
      const { database, visits } = c.get("deps");
      const metrics = await refreshAnalytics({ database, flushVisits: () => visits.flush() }, actor);
      return c.json({ metrics }, 200);
    })
    .openapi(maintenance, async (c) => {
      const actor = await requireStaff(c);
      const { database, storage, env } = c.get("deps");
      const result = await runMaintenance(
        { database, storage, dataDir: env.dataDir, databaseUrl: env.databaseUrl, keep: env.backupKeep },
        actor,
      );
      return c.json(result, 200);
    })
    .openapi(backups, async (c) => {
      const { database, env } = c.get("deps");
      return c.json(
        {
          backups: await listBackups(env.dataDir),
          keep: env.backupKeep,
          database: database.kind,
          includesUploads: env.s3 === null,
        },
        200,
      );
    })
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
