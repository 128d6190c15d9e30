import { formatDate } from "../../../shared/dates.ts";
import type { Analytics } from "../../../shared/schemas/admin.ts";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { useAnalytics } from "./admin-api.ts";
import { count, LoadFailed, Loading, StatCard } from "./admin-ui.tsx";
import { DEMO_ANALYTICS } from "./demo-data.ts";

export function AnalyticsTab({ demo }: { demo: boolean }) {
  const query = useAnalytics(!demo);
  const data = demo ? DEMO_ANALYTICS : query.data;
  if (!data) {
    return query.isError ? (
      <LoadFailed what="the analytics" onRetry={() => query.refetch()} />
    ) : (
      <Loading label="Loading the analytics" />
    );
  }
  return (
    <div className="space-y-6">
      <h2 className="text-xl font-semibold text-slate-900">Analytics Dashboard</h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Page Views" value={count(data.pageViews)} hint="Last 30 days" />
        <StatCard label="Unique Visitors" value={count(data.uniqueVisitors)} hint="Last 30 days" />
        <StatCard label="Active Websites" value={count(data.activeWebsites)} hint="Sites with traffic" />
        <StatCard
          label="Traffic Overview"
          value={data.pagesPerVisitor === null ? "—" : data.pagesPerVisitor.toFixed(2)}
          hint={
            data.visitorRatioPercent === null
              ? "Pages per visitor (no traffic yet)"
              : `Pages per visitor · ${data.visitorRatioPercent.toFixed(1)}% visitors to page views`
          }
        />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Daily traffic</CardTitle>
          <CardDescription>Page views (bars) and unique visitors (line), last 30 days.</CardDescription>
        </CardHeader>
        <CardContent>
          <DailyChart daily={data.daily} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Top Performing Websites</CardTitle>
          <CardDescription>By page views, last 30 days.</CardDescription>
        </CardHeader>
        <CardContent>
          {data.topWebsites.length === 0 ? (
            <p className="text-sm text-slate-600">No traffic yet.</p>
          ) : (
            <ol className="divide-y divide-slate-100">
              {data.topWebsites.map((w, i) => (
                <li key={w.websiteId} className="flex items-center justify-between gap-4 py-2 text-sm">
                  <span>
                    <span className="mr-2 text-slate-400">{i + 1}.</span>
                    <span className="font-medium text-slate-900">{w.websiteName}</span>{" "}
                    {w.subdomain ? (
                      <a
                        className="text-brand-600 hover:underline"
                        href={`/author/${encodeURIComponent(w.subdomain)}/`}
                      >
                        {w.subdomain}
                      </a>
                    ) : null}
                  </span>
                  <span className="text-slate-600">
                    {count(w.pageViews)} views · {count(w.uniqueVisitors)} visitors
                  </span>
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** A plain SVG chart: no chart library for thirty bars. The table under it says the same in words. */
function DailyChart({ daily }: { daily: Analytics["daily"] }) {
  const width = 720;
  const height = 180;
  const max = Math.max(1, ...daily.map((d) => d.pageViews));
  const step = width / daily.length;
  const y = (v: number) => height - (v / max) * (height - 10);
  const line = daily.map((d, i) => `${(i + 0.5) * step},${y(d.uniqueVisitors)}`).join(" ");
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-48 w-full"
        role="img"
        aria-label="Daily page views and visitors"
      >
        {daily.map((d, i) => (
          <rect
            key={d.date}
            x={i * step + 2}
            y={y(d.pageViews)}
            width={Math.max(1, step - 4)}
            height={height - y(d.pageViews)}
            rx={2}
            className="fill-brand-200"
          >
            <title>{`${formatDate(d.date)}: ${d.pageViews} views, ${d.uniqueVisitors} visitors`}</title>
          </rect>
        ))}
        <polyline points={line} fill="none" strokeWidth={2} className="stroke-brand-600" />
      </svg>
      <figcaption className="mt-2 flex justify-between text-xs text-slate-500">
        <span>{formatDate(daily[0]?.date)}</span>
        <span>{formatDate(daily.at(-1)?.date)}</span>
      </figcaption>
    </figure>
  );
}
