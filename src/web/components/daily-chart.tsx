// A plain SVG chart of page views (bars) and visitors (line) per day: no chart library for ninety
// bars. Each bar has a title with the day's figures; the screens say the totals in words beside it.
import { formatDate } from "../../shared/dates.ts";

export type DailyPoint = { date: string; views: number; visitors: number };

export function DailyChart({ daily, label }: { daily: DailyPoint[]; label: string }) {
  const width = 720;
  const height = 180;
  const max = Math.max(1, ...daily.map((d) => d.views));
  const step = width / Math.max(1, daily.length);
  const gap = daily.length > 45 ? 1 : 2;
  const y = (v: number) => height - (v / max) * (height - 10);
  const line = daily.map((d, i) => `${(i + 0.5) * step},${y(d.visitors)}`).join(" ");
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        className="h-48 w-full"
        role="img"
        aria-label={label}
      >
        {daily.map((d, i) => (
          <rect
            key={d.date}
            x={i * step + gap}
            y={y(d.views)}
            width={Math.max(1, step - 2 * gap)}
            height={height - y(d.views)}
            rx={2}
            className="fill-brand-200"
          >
            <title>{`${formatDate(d.date)}: ${d.views} views, ${d.visitors} visitors`}</title>
          </rect>
        ))}
        <polyline
          points={line}
          fill="none"
          strokeWidth={2}
          vectorEffect="non-scaling-stroke"
          className="stroke-brand-600"
        />
      </svg>
      <figcaption className="mt-2 flex justify-between text-xs text-slate-500">
        <span>{formatDate(daily[0]?.date)}</span>
        <span>{formatDate(daily.at(-1)?.date)}</span>
      </figcaption>
    </figure>
  );
}
