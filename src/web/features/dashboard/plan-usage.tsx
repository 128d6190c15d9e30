// The plan card's book count: how many books, how many the plan shows, and a warning near the limit.
import { AlertTriangle } from "lucide-react";
import { Link } from "react-router";
import type { Plan } from "../../../shared/plans.ts";
import { ProgressBar } from "../../components/ui/progress-bar.tsx";
import type { Capacity } from "../../lib/account-state.ts";
import { cn } from "../../lib/utils.ts";

function usageTone(percent: number) {
  if (percent >= 100) return { bar: "bg-red-500", label: "text-red-700" };
  if (percent >= 80) return { bar: "bg-orange-500", label: "text-orange-700" };
  return { bar: "bg-emerald-500", label: "text-emerald-700" };
}

/** `capacity` undefined while it loads: the count says so rather than showing a made-up 0. */
export function BookUsage({ plan, capacity }: { plan: Plan; capacity: Capacity | undefined }) {
  const limit = capacity?.limit ?? plan.bookLimit;
  const used = capacity?.used ?? 0;
  const percent = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 0;
  const tone = usageTone(percent);
  // Books kept off the site by the plan: then the count of books and of books shown differ, and
  // a percentage of the plan would read over 100 (ADR 054).
  const keptOff = capacity?.hiddenByPlan ?? 0;
  const shown = capacity?.shown ?? 0;
  return (
    <div>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="text-slate-700">Books</span>
        {capacity ? (
          <span className={cn("text-right font-medium", tone.label)} data-testid="books-used">
            {keptOff > 0 || used > limit
              ? `${used} books, ${shown} shown on your site (${plan.name} plan allows ${limit})`
              : `${used} of ${limit} used (${percent}%)`}
          </span>
        ) : (
          // Never a made-up "0 used" while the count is on its way.
          <span className="text-slate-500">Counting your books...</span>
        )}
      </div>
      <ProgressBar
        label="Books used of your plan"
        now={Math.min(used, limit)}
        max={limit}
        percent={percent}
        className="mt-2 h-2.5 overflow-hidden rounded-full bg-slate-100"
        fillClassName={cn("h-full rounded-full transition-all", tone.bar)}
      />
      {keptOff > 0 ? (
        <p role="alert" className="mt-3 flex gap-2 text-sm text-red-800">
          <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          <span>
            {keptOff} of your books {keptOff === 1 ? "is" : "are"} not shown on your site because the {plan.name} plan
            covers {limit}.{" "}
            <Link to="/dashboard/books" className="font-medium underline">
              Choose which books are shown
            </Link>
            , or upgrade.
          </span>
        </p>
      ) : percent >= 100 ? (
        <p className="mt-3 flex gap-2 text-sm text-red-800">
          <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          You have reached your plan's limit of {limit} books.
        </p>
      ) : percent >= 80 ? (
        <p className="mt-3 flex gap-2 text-sm text-orange-800">
          <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          You are close to your plan's limit of {limit} books.
        </p>
      ) : null}
    </div>
  );
}
