import { formatDate } from "../../../shared/dates.ts";
import type { SystemMetrics } from "../../../shared/schemas/admin.ts";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { StatCard } from "../../components/ui/stat-card.tsx";
import { useLiveOpenCount, useOverview } from "./admin-api.ts";
import { count, gbp, NotLoaded } from "./admin-ui.tsx";
import { DEMO_OVERVIEW } from "./demo-data.ts";

export function OverviewTab({ demo }: { demo: boolean }) {
  const query = useOverview(!demo);
  // The same live count as the Support tab (server-sent events), so a new ticket shows here at once.
  const liveOpen = useLiveOpenCount(!demo);
  const data = demo ? DEMO_OVERVIEW : query.data;
  if (!data) return <NotLoaded query={query} what="the overview" />;
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Revenue this month" value={gbp(data.revenueThisMonthGbpMinor)} hint="All currencies, in GBP" />
        <StatCard label="Active users" value={count(data.activeUsers30d)} hint="Last 30 days" />
        <StatCard label="Accounts" value={count(data.totalUsers)} />
        <div className="grid" aria-live="polite" data-testid="overview-open-tickets">
          <StatCard label="Open tickets" value={count(liveOpen ?? data.openTickets)} hint="Updates live" />
        </div>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Latest system metrics</CardTitle>
          <CardDescription>
            {data.latestMetrics
              ? `Computed ${formatDate(data.latestMetrics.createdAt, "long")}; recalculate from Settings.`
              : "Not computed yet: the daily job runs at 00:05 UTC, or use Recalculate Metrics in Settings."}
          </CardDescription>
        </CardHeader>
        {data.latestMetrics ? (
          <CardContent>
            <MetricsTable m={data.latestMetrics} />
          </CardContent>
        ) : null}
      </Card>
    </div>
  );
}

function MetricsTable({ m }: { m: SystemMetrics }) {
  const rows: [string, string][] = [
    ["Date", formatDate(m.metricDate)],
    ["Total users", count(m.totalUsers)],
    ["New sign-ups (that day)", count(m.newSignups)],
    ["Monthly revenue", gbp(m.monthlyRevenueGbpMinor)],
    ["Paying users", count(m.paidUsers)],
    ["Active users (30 days)", count(m.activeUsers)],
    ["On trial", count(m.trialUsers)],
    [
      "Mini / Midi / Maxi / Mega",
      [m.miniTierUsers, m.midiTierUsers, m.maxiTierUsers, m.megaTierUsers].map(count).join(" / "),
    ],
    ["Churned this month", count(m.churnCount)],
  ];
  return (
    <dl className="grid gap-x-8 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs font-medium text-slate-500 uppercase">{label}</dt>
          <dd className="text-sm font-semibold text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
