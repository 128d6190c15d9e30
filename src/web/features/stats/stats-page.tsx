// 'Stats': the author's own site traffic for the last 7, 30 or 90 days — views and visitors per
// day, the most visited pages and books, and the sites readers came from. Counted without cookies
// (a visitor is counted once a day; nothing identifies a reader), so no consent banner is needed.
import { BarChart3 } from "lucide-react";
import { useSearchParams } from "react-router";
import type { Stats, StatsRange } from "../../../shared/schemas/stats.ts";
import { STATS_RANGES } from "../../../shared/schemas/stats.ts";
import { DailyChart } from "../../components/daily-chart.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { LoadFailed } from "../../components/ui/load-failed.tsx";
import { PageHeading } from "../../components/ui/page-heading.tsx";
import { StatCard } from "../../components/ui/stat-card.tsx";
import { useSubdomain } from "../../lib/account-state.ts";
import { cn } from "../../lib/utils.ts";
import { useStats } from "./stats-api.ts";

const count = (n: number) => n.toLocaleString("en-GB");

function rangeOf(raw: string | null): StatsRange {
  const n = Number(raw);
  return (STATS_RANGES as readonly number[]).includes(n) ? (n as StatsRange) : 30;
}

export function StatsPage() {
  const [params, setParams] = useSearchParams();
  const days = rangeOf(params.get("days"));
  const stats = useStats(days);
  return (
    <div className="space-y-6">
      <PageHeading
        title="Stats"
        description="Who reads your site, counted without cookies. Search engines and other robots are left out."
      >
        <fieldset className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5 shadow-sm">
          <legend className="sr-only">Period</legend>
          {STATS_RANGES.map((n) => (
            <button
              key={n}
              type="button"
              aria-pressed={n === days}
              onClick={() => setParams(n === 30 ? {} : { days: String(n) }, { replace: true })}
              className={cn(
                "rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-500",
                n === days ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100",
              )}
            >
              {n} days
            </button>
          ))}
        </fieldset>
      </PageHeading>
      {stats.data ? (
        <StatsBody data={stats.data} />
      ) : stats.isError ? (
        <LoadFailed retry={() => stats.refetch()}>
          <p>Failed to load your stats.</p>
        </LoadFailed>
      ) : (
        <div aria-busy="true" className="space-y-4">
          <span className="sr-only">Loading...</span>
          <div className="h-24 animate-pulse rounded-2xl bg-slate-100" />
          <div className="h-64 animate-pulse rounded-2xl bg-slate-100" />
        </div>
      )}
    </div>
  );
}

function StatsBody({ data }: { data: Stats }) {
  const subdomain = useSubdomain().data ?? null;
  const period = `Last ${data.days} days`;
  const { pageViews, visitors } = data.totals;
  if (pageViews === 0) {
    return (
      <div className="rounded-2xl border-2 border-dashed border-slate-300 bg-white px-6 py-16 text-center">
        <BarChart3 className="mx-auto h-12 w-12 text-slate-400" aria-hidden="true" />
        <h2 className="mt-4 text-lg font-semibold text-slate-900">No visits yet</h2>
        <p className="mx-auto mt-1 max-w-md text-sm text-slate-500">
          Visits to your site in the last {data.days} days show here within a minute or so. Share your site's address to
          bring readers in.
        </p>
      </div>
    );
  }
  const preview = (path: string) => (subdomain ? `/author/${encodeURIComponent(subdomain)}${path}` : undefined);
  const viewed = (pages: Stats["topPages"]) =>
    pages.map((p) => ({ key: p.path, label: p.label, href: preview(p.path), n: p.views }));
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Page views" value={count(pageViews)} hint={period} />
        <StatCard label="Visitors" value={count(visitors)} hint={`${period} · each counted once a day`} />
        <StatCard
          label="Pages per visitor"
          value={visitors ? (pageViews / visitors).toFixed(1) : "—"}
          hint="How far readers explore"
        />
      </div>
      <Card>
        <CardContent className="space-y-3">
          <div>
            <h2 className="text-base font-semibold text-slate-900">Daily traffic</h2>
            <p className="text-sm text-slate-600">
              <span className="mr-1 inline-block h-2.5 w-2.5 rounded-sm bg-brand-200" aria-hidden="true" />
              Page views <span className="mx-1 text-slate-300">·</span>
              <span className="mr-1 inline-block h-0.5 w-3 bg-brand-600 align-middle" aria-hidden="true" />
              Visitors
            </p>
          </div>
          <DailyChart
            label={`Page views and visitors per day, ${period.toLowerCase()}`}
            daily={data.daily.map((d) => ({ date: d.date, views: d.pageViews, visitors: d.visitors }))}
          />
        </CardContent>
      </Card>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Ranked title="Most visited pages" empty="No page views yet." rows={viewed(data.topPages)} unit="views" />
        <div className="space-y-6">
          <Ranked
            title="Most visited books"
            empty="No book pages viewed yet."
            rows={viewed(data.topBooks)}
            unit="views"
          />
          <Ranked
            title="Where readers came from"
            empty="No arrivals yet."
            note="The site a reader followed a link from. Direct: typed, bookmarked, or an app that does not say."
            rows={data.referrers.map((r) => ({ key: r.source, label: r.source || "Direct or unknown", n: r.visits }))}
            unit="visits"
          />
        </div>
      </div>
      <BuyBoxStats books={data.stores} />
    </>
  );
}

/** Per book, which store readers were shown first (their country's) and which they clicked (ADR 036). */
function BuyBoxStats(props: { books: Stats["stores"] }) {
  return (
    <Card>
      <CardContent className="space-y-3">
        <div>
          <h2 className="text-base font-semibold text-slate-900">Where readers buy</h2>
          <p className="text-xs text-slate-500">
            Per book: how often each store was the one shown first (the reader's own country's), and how often readers
            followed a link to it.
          </p>
        </div>
        {props.books.length === 0 ? (
          <p className="text-sm text-slate-600">No store links shown or clicked yet.</p>
        ) : (
          <div className="grid gap-4 md:grid-cols-2">
            {props.books.map((b) => (
              <table key={b.bookId} className="w-full text-sm" aria-label={`Stores for ${b.title}`}>
                <caption className="mb-1 text-left font-medium text-slate-900">{b.title}</caption>
                <thead>
                  <tr className="border-b border-slate-200 text-xs text-slate-500">
                    <th scope="col" className="py-1 text-left font-medium">
                      Store
                    </th>
                    <th scope="col" className="py-1 text-right font-medium">
                      Shown first
                    </th>
                    <th scope="col" className="py-1 text-right font-medium">
                      Clicks
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {b.stores.map((st) => (
                    <tr key={st.store} className="border-b border-slate-100 last:border-0">
                      <th scope="row" className="py-1.5 text-left font-normal text-slate-900">
                        {st.label}
                      </th>
                      <td className="py-1.5 text-right tabular-nums text-slate-600">{count(st.shown)}</td>
                      <td className="py-1.5 text-right tabular-nums text-slate-900">{count(st.clicks)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ))}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function Ranked(props: {
  title: string;
  empty: string;
  note?: string;
  unit: string;
  rows: { key: string; label: string; href?: string | undefined; n: number }[];
}) {
  const max = Math.max(1, ...props.rows.map((r) => r.n));
  return (
    <Card>
      <CardContent className="space-y-3">
        <div>
          <h2 className="text-base font-semibold text-slate-900">{props.title}</h2>
          {props.note ? <p className="text-xs text-slate-500">{props.note}</p> : null}
        </div>
        {props.rows.length === 0 ? (
          <p className="text-sm text-slate-600">{props.empty}</p>
        ) : (
          <ol className="space-y-2" aria-label={props.title}>
            {props.rows.map((r) => (
              <li key={r.key} className="relative overflow-hidden rounded-md px-3 py-1.5 text-sm">
                <span
                  className="absolute inset-y-0 left-0 bg-brand-50"
                  style={{ width: `${(r.n / max) * 100}%` }}
                  aria-hidden="true"
                />
                <span className="relative flex items-center justify-between gap-3">
                  {r.href ? (
                    <a href={r.href} target="_blank" rel="noopener" className="truncate text-slate-900 hover:underline">
                      {r.label}
                    </a>
                  ) : (
                    <span className="truncate text-slate-900">{r.label}</span>
                  )}
                  <span className="shrink-0 tabular-nums text-slate-600">
                    {count(r.n)} {props.unit}
                  </span>
                </span>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
