// System Settings: recompute the metrics, the health checks, and what staff did.
import { CheckCircle2, XCircle } from "lucide-react";
import { toast } from "sonner";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { AdminActions } from "./admin-actions.tsx";
import { useAudit, useRecalculate, useSystem } from "./admin-api.ts";
import { LoadFailed } from "./admin-ui.tsx";
import { DEMO_AUDIT, DEMO_SYSTEM } from "./demo-data.ts";

const ACTION_LABEL: Record<string, string> = {
  role_changed: "Changed role",
  user_banned: "Banned",
  user_unbanned: "Unbanned",
  password_reset_sent: "Sent password reset",
  exchange_rate_changed: "Changed exchange rate",
  ticket_responded: "Answered ticket",
  ticket_closed: "Closed ticket",
  ticket_reopened: "Reopened ticket",
  metrics_recalculated: "Recalculated metrics",
  analytics_refreshed: "Refreshed analytics",
  maintenance_run: "Ran database maintenance",
  backup_downloaded: "Downloaded a backup",
  report_downloaded: "Downloaded a report",
};

const dateTime = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

function uptime(seconds: number) {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : `${m} min`;
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export function SettingsTab({ demo }: { demo: boolean }) {
  const recalc = useRecalculate();
  const system = useSystem(!demo);
  const audit = useAudit(!demo);
  const health = demo ? DEMO_SYSTEM : system.data;
  const entries = demo ? DEMO_AUDIT : audit.data?.entries;
  return (
    <div className="space-y-6">
      <h2 className="text-xl font-semibold text-slate-900">System Settings</h2>
      <Card>
        <CardHeader>
          <CardTitle>Metrics</CardTitle>
          <CardDescription>
            Recompute today's system metrics now. A scheduled job does the same every day at 00:05 UTC.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button
            disabled={demo || recalc.isPending}
            onClick={() =>
              recalc.mutate(undefined, {
                onSuccess: () => toast.success(ADMIN_MESSAGES.metricsUpdated),
                onError: () => toast.error(ADMIN_MESSAGES.metricsFailed),
              })
            }
          >
            {recalc.isPending ? "Recalculating..." : "Recalculate Metrics"}
          </Button>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>System Health</CardTitle>
          <CardDescription>Checked when this page loaded.</CardDescription>
        </CardHeader>
        <CardContent>
          {!health ? (
            system.isError ? (
              <LoadFailed what="the health checks" onRetry={() => system.refetch()} />
            ) : (
              <p className="text-sm text-slate-600">Checking...</p>
            )
          ) : (
            <ul className="divide-y divide-slate-100">
              {health.checks.map((c) => (
                <li key={c.name} className="flex items-start gap-3 py-2 text-sm">
                  {c.ok ? (
                    <CheckCircle2 aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" />
                  ) : (
                    <XCircle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-red-600" />
                  )}
                  <span>
                    <span className="font-medium text-slate-900">{c.name}</span>{" "}
                    <span className={c.ok ? "text-emerald-700" : "text-red-700"}>{c.ok ? "Healthy" : "Problem"}</span>
                    <span className="block text-slate-600">{c.detail}</span>
                  </span>
                </li>
              ))}
              <li className="py-2 text-sm text-slate-600">
                This process: up {uptime(health.uptimeSeconds)}, {mb(health.memory.rssBytes)} memory (
                {mb(health.memory.heapUsedBytes)} JavaScript heap)
              </li>
            </ul>
          )}
        </CardContent>
      </Card>
      <AdminActions demo={demo} />
      <Card>
        <CardHeader>
          <CardTitle>Audit log</CardTitle>
          <CardDescription>What staff did, newest first.</CardDescription>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          {!entries ? (
            audit.isError ? (
              <LoadFailed what="the audit log" onRetry={() => audit.refetch()} />
            ) : (
              <p className="text-sm text-slate-600">Loading...</p>
            )
          ) : entries.length === 0 ? (
            <p className="text-sm text-slate-600">Nothing yet.</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-xs text-slate-500 uppercase">
                  <th className="px-3 py-2 font-medium">When</th>
                  <th className="px-3 py-2 font-medium">Who</th>
                  <th className="px-3 py-2 font-medium">Did</th>
                  <th className="px-3 py-2 font-medium">To</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {entries.map((e) => (
                  <tr key={e.id}>
                    <td className="px-3 py-2 whitespace-nowrap text-slate-600">{dateTime(e.createdAt)}</td>
                    <td className="px-3 py-2">{e.actorEmail}</td>
                    <td className="px-3 py-2">
                      {ACTION_LABEL[e.action] ?? e.action}
                      {e.detail ? <span className="text-slate-500"> ({e.detail})</span> : null}
                    </td>
                    <td className="px-3 py-2">{e.target ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
