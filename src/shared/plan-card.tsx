// One plan's card, on the public /pricing page (rendered on the server, no script) and on the
// author's plan screen in the dashboard: its name, who it suits, the monthly price in the chosen
// currency and its book limit. The action under it (a link, a button) is each page's own.
import type { ReactNode } from "react";
import type { Currency, Tier } from "./enums.ts";
import { formatMoney, MONTHLY_PRICE_MINOR, PLANS } from "./plans.ts";

/** The plan marked "Most popular", whose action is the primary button. */
export const POPULAR_TIER: Tier = "midi";

export function PlanCard({ tier, currency, children }: { tier: Tier; currency: Currency; children: ReactNode }) {
  const plan = PLANS[tier];
  const popular = tier === POPULAR_TIER;
  return (
    <article
      aria-labelledby={`plan-${tier}`}
      className={`flex flex-col rounded-2xl border bg-white p-6 shadow-sm ${popular ? "border-brand-600 ring-1 ring-brand-600" : "border-slate-200"}`}
    >
      <div className="flex items-center justify-between">
        <h2 id={`plan-${tier}`} className="text-lg font-semibold text-slate-900">
          {plan.name}
        </h2>
        {popular ? (
          <span className="rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-700">
            Most popular
          </span>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-slate-600">{plan.range}</p>
      <p className="mt-6">
        <span className="text-4xl font-bold text-slate-900" data-testid={`price-${tier}`}>
          {formatMoney(MONTHLY_PRICE_MINOR[tier][currency], currency)}
        </span>
        <span className="text-sm text-slate-600"> / month</span>
      </p>
      <p className="mt-2 text-sm text-slate-600">Up to {plan.bookLimit} books on your site</p>
      <div className="mt-auto pt-6">{children}</div>
    </article>
  );
}
