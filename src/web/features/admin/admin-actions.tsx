// System Settings' Admin Actions (spec): Refresh Analytics, Database Maintenance (VACUUM and a
// backup, super admin only, ADR 046) with the backups kept, and Generate Reports (a month as CSV).
import { Download } from "lucide-react";
import { type ReactNode, useState } from "react";
import { toast } from "sonner";
import { ADMIN_ACTION_MESSAGES, currentMonth, type ReportKind } from "../../../shared/schemas/back-office-actions.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { errorMessage } from "../../lib/api.ts";
import { useAdminAccess, useBackups, useMaintenance, useRefreshAnalytics } from "./admin-api.ts";
import { LoadFailed } from "./admin-ui.tsx";

const dateTime = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

function size(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Fetches a file and hands it to the browser as a download; the server's message on failure. */
async function download(url: string): Promise<string> {
  const res = await fetch(url, { credentials: "same-origin" });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? "The download failed");
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "download";
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}

export function AdminActions({ demo }: { demo: boolean }) {
  const access = useAdminAccess();
  const superAdmin = !demo && access.data?.role === "super_admin";
  const refresh = useRefreshAnalytics();
  const maintenance = useMaintenance();
  const backups = useBackups(!demo);
  const [month, setMonth] = useState(currentMonth());
  const [reporting, setReporting] = useState<ReportKind | null>(null);

  async function report(kind: ReportKind) {
    if (!/^\d{4}-\d{2}$/.test(month)) {
      toast.error(ADMIN_ACTION_MESSAGES.monthInvalid);
      return;
    }
    setReporting(kind);
    try {
      const name = await download(`/api/admin/reports/${kind}?month=${encodeURIComponent(month)}`);
      toast.success(`Report downloaded: ${name}`);
    } catch (err) {
      toast.error((err as Error).message);
    } finally {
      setReporting(null);
    }
  }

  const list = backups.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Admin Actions</CardTitle>
        <CardDescription>Each action is recorded in the audit log.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="grid gap-6 md:grid-cols-3">
          <ActionSection id="refresh-analytics" title="Refresh Analytics">
            <p className="text-sm text-slate-600">
              Writes the visits counted in the last few seconds into the traffic figures and recomputes today's metrics.
            </p>
            <Button
              disabled={demo || refresh.isPending}
              onClick={() =>
                refresh.mutate(undefined, {
                  onSuccess: () => toast.success(ADMIN_ACTION_MESSAGES.analyticsRefreshed),
                  onError: (err) => toast.error(errorMessage(err, ADMIN_ACTION_MESSAGES.analyticsFailed)),
                })
              }
            >
              {refresh.isPending ? "Refreshing..." : "Refresh Analytics"}
            </Button>
          </ActionSection>
          <ActionSection id="database-maintenance" title="Database Maintenance">
            <p className="text-sm text-slate-600">
              Runs VACUUM (ANALYZE), then backs up the database and uploads while the site keeps serving.
              {superAdmin || demo ? null : " Super admin only."}
            </p>
            <Button
              disabled={!superAdmin || maintenance.isPending}
              onClick={() =>
                maintenance.mutate(undefined, {
                  onSuccess: (r) =>
                    toast.success(
                      `${ADMIN_ACTION_MESSAGES.maintenanceDone}: ${r.backup.name} (${size(r.backup.sizeBytes)})`,
                    ),
                  onError: (err) => toast.error(errorMessage(err, ADMIN_ACTION_MESSAGES.maintenanceFailed)),
                })
              }
            >
              {maintenance.isPending ? "Working..." : "Database Maintenance"}
            </Button>
          </ActionSection>
          <ActionSection id="generate-reports" title="Generate Reports">
            <p className="text-sm text-slate-600">A month's transactions or subscriptions as CSV.</p>
            <div className="space-y-1">
              <Label htmlFor="report-month">Month</Label>
              <Input
                id="report-month"
                type="month"
                value={month}
                max={currentMonth()}
                onChange={(e) => setMonth(e.target.value)}
                className="max-w-48"
              />
            </div>
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" disabled={demo || reporting !== null} onClick={() => report("revenue")}>
                <Download aria-hidden="true" className="h-4 w-4" />
                {reporting === "revenue" ? "Generating..." : "Revenue CSV"}
              </Button>
              <Button variant="secondary" disabled={demo || reporting !== null} onClick={() => report("subscriptions")}>
                <Download aria-hidden="true" className="h-4 w-4" />
                {reporting === "subscriptions" ? "Generating..." : "Subscriptions CSV"}
              </Button>
            </div>
          </ActionSection>
        </div>
        <ActionSection id="backups-heading" title="Backups">
          {demo ? (
            <p className="text-sm text-slate-600">Backups appear here after Database Maintenance runs.</p>
          ) : !list ? (
            backups.isError ? (
              <LoadFailed what="the backups" onRetry={() => backups.refetch()} />
            ) : (
              <p className="text-sm text-slate-600">Loading...</p>
            )
          ) : (
            <>
              <p className="text-sm text-slate-600">
                The newest {list.keep} are kept in DATA_DIR/backups.{" "}
                {list.includesUploads
                  ? "Each holds the database and every upload."
                  : "Uploads are in the S3 bucket, which backups do not copy: back the bucket up on its own."}{" "}
                Restore with <code className="rounded bg-slate-100 px-1">npm run restore -- &lt;file&gt;</code>.
              </p>
              {list.backups.length === 0 ? (
                <p className="text-sm text-slate-600">No backups yet.</p>
              ) : (
                <ul className="divide-y divide-slate-100 text-sm" aria-label="Backups">
                  {list.backups.map((b) => (
                    <li key={b.name} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
                      <span className="min-w-0">
                        <span className="block font-medium break-all text-slate-900">{b.name}</span>
                        <span className="text-slate-600">
                          {dateTime(b.createdAt)} · {size(b.sizeBytes)}
                        </span>
                      </span>
                      {superAdmin ? (
                        <a
                          href={`/api/admin/backups/${encodeURIComponent(b.name)}`}
                          download={b.name}
                          className="inline-flex items-center gap-1 font-medium text-brand-700 hover:underline"
                        >
                          <Download aria-hidden="true" className="h-4 w-4" /> Download
                        </a>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </ActionSection>
      </CardContent>
    </Card>
  );
}

/** One action of the card: its heading (`id` labels the section) and what it shows. */
function ActionSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h3 id={id} className="text-sm font-semibold text-slate-900">
        {title}
      </h3>
      {children}
    </section>
  );
}
