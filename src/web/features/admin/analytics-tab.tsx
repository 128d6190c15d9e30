import { DailyChart } from "../../components/daily-chart.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { StatCard } from "../../components/ui/stat-card.tsx";
import { useAnalytics } from "./admin-api.ts";
import { count, NotLoaded } from "./admin-ui.tsx";
import { DEMO_ANALYTICS } from "./demo-data.ts";

const hostOf = (url: string) => new URL(url).host;

export function AnalyticsTab({ demo }: { demo: boolean }) {
  const query = useAnalytics(!demo);
  const data = demo ? DEMO_ANALYTICS : query.data;
  if (!data) return <NotLoaded query={query} what="the analytics" />;
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
          <DailyChart
            label="Daily page views and visitors"
            daily={data.daily.map((d) => ({ date: d.date, views: d.pageViews, visitors: d.uniqueVisitors }))}
          />
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
                <li
                  key={w.websiteId}
                  className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 text-sm"
                >
                  <span className="min-w-0 break-words">
                    <span className="mr-2 text-slate-400">{i + 1}.</span>
                    <span className="font-medium text-slate-900">{w.websiteName}</span>{" "}
                    {w.liveUrl ? (
                      <a
                        className="break-all text-brand-600 hover:underline"
                        href={w.liveUrl}
                        target="_blank"
                        rel="noreferrer"
                      >
                        {hostOf(w.liveUrl)}
                        <span className="sr-only"> (opens the live site)</span>
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
