import { CalendarClock, CreditCard } from "lucide-react";
import type { ReactNode } from "react";
import { formatDate } from "../../../shared/dates.ts";
import { CURRENCIES, type Currency, TIERS } from "../../../shared/enums.ts";
import {
  CURRENCY_SYMBOLS,
  CUSTOM_DOMAIN_ADDON_MINOR,
  formatMoney,
  MONTHLY_PRICE_MINOR,
  PLANS,
  TRIAL_DAYS,
} from "../../../shared/plans.ts";
import { normaliseDomain } from "../../../shared/schemas/onboarding.ts";
import { cn } from "../../lib/utils.ts";
import { firstPaymentDate, type Issue, monthlyTotalMinor, type WizardValues } from "./wizard-model.ts";

export function StepPlan({
  values,
  issue,
  sitesDomain,
  onChange,
}: {
  values: WizardValues;
  issue: Issue | null;
  sitesDomain: string;
  onChange: (patch: Partial<WizardValues>) => void;
}) {
  const { currency, tier } = values;
  const firstPayment = formatDate(firstPaymentDate(), "long");
  const address =
    values.domainOption === "free" ? `${values.subdomain}.${sitesDomain}` : normaliseDomain(values.ownDomain);

  return (
    <div className="space-y-6">
      <CurrencyPicker value={currency} onChange={(c) => onChange({ currency: c })} />

      <fieldset aria-invalid={issue?.field === "tier" ? true : undefined}>
        <legend className="mb-3 text-sm font-medium text-slate-700">Plan *</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {TIERS.map((t) => {
            const plan = PLANS[t];
            const checked = tier === t;
            return (
              <label
                key={t}
                className={cn(
                  "relative flex cursor-pointer gap-3 rounded-xl border bg-white p-4 shadow-sm transition",
                  "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500",
                  checked ? "border-brand-500 ring-1 ring-brand-500" : "border-slate-200 hover:border-slate-300",
                  issue?.field === "tier" && "border-red-300",
                )}
              >
                <input
                  type="radio"
                  name="tier"
                  value={t}
                  checked={checked}
                  onChange={() => onChange({ tier: t })}
                  className="mt-1 h-4 w-4 accent-brand-600"
                  aria-label={`${plan.name} — ${plan.range}, ${formatMoney(MONTHLY_PRICE_MINOR[t][currency], currency)} a month`}
                />
                <span className="flex-1">
                  <span className="flex items-start justify-between gap-2">
                    <span>
                      <span className="block font-semibold text-slate-900">{plan.name}</span>
                      <span className="block text-sm text-slate-500">{plan.range}</span>
                    </span>
                    <span className="text-right">
                      <span className="block text-lg font-bold text-slate-900">
                        {formatMoney(MONTHLY_PRICE_MINOR[t][currency], currency)}
                      </span>
                      <span className="block text-xs text-slate-500">per month</span>
                    </span>
                  </span>
                  {t === "midi" ? (
                    <span className="mt-2 inline-block rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">
                      Most popular
                    </span>
                  ) : null}
                </span>
              </label>
            );
          })}
        </div>
        <p className="mt-2 text-xs text-slate-500">
          Every plan has every feature; plans differ only in how many books you show.
        </p>
      </fieldset>

      <section aria-labelledby="summary-title" className="rounded-xl border border-slate-200 bg-slate-50 p-5">
        <h3 id="summary-title" className="font-semibold text-slate-900">
          Summary
        </h3>
        <dl className="mt-3 space-y-2 text-sm" data-testid="plan-summary">
          <Row label="Website" value={values.websiteName.trim()} />
          <Row label="Address" value={address} mono />
          <Row
            label={tier ? `${PLANS[tier].name} plan (${PLANS[tier].range})` : "Plan"}
            value={tier ? `${formatMoney(MONTHLY_PRICE_MINOR[tier][currency], currency)}/month` : "Not selected"}
          />
          {values.domainOption === "custom" ? (
            <Row label="Custom domain" value={`${formatMoney(CUSTOM_DOMAIN_ADDON_MINOR[currency], currency)}/month`} />
          ) : null}
          <div className="my-2 border-t border-slate-200" />
          <Row label="Due today" value={formatMoney(0, currency)} strong />
          {tier ? (
            <Row
              label={`From ${firstPayment}`}
              value={`${formatMoney(monthlyTotalMinor(tier, currency, values.domainOption), currency)}/month`}
              strong
            />
          ) : null}
        </dl>
      </section>

      <div className="grid gap-3 sm:grid-cols-2">
        <Notice icon={<CreditCard aria-hidden="true" className="h-5 w-5" />} title="Credit card required">
          You'll enter your card on the next page to start the free trial. Nothing is charged today. Your site opens to
          readers as soon as you add your card.
        </Notice>
        <Notice icon={<CalendarClock aria-hidden="true" className="h-5 w-5" />} title="Billing starts on day 15">
          Your {TRIAL_DAYS}-day free trial ends on {firstPayment}. Cancel any time before then and pay nothing.
        </Notice>
      </div>
    </div>
  );
}

function CurrencyPicker({ value, onChange }: { value: Currency; onChange: (c: Currency) => void }) {
  return (
    <fieldset className="flex flex-wrap items-center justify-between gap-3">
      <legend className="sr-only">Currency</legend>
      <span aria-hidden="true" className="text-sm font-medium text-slate-700">
        Currency
      </span>
      <div className="inline-flex rounded-lg border border-slate-200 bg-slate-100 p-1">
        {CURRENCIES.map((c) => (
          <label
            key={c}
            className={cn(
              "cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500",
              value === c ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900",
            )}
          >
            <input
              type="radio"
              name="currency"
              value={c}
              checked={value === c}
              onChange={() => onChange(c)}
              className="sr-only"
              aria-label={c}
            />
            <span aria-hidden="true">
              {CURRENCY_SYMBOLS[c]} {c}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Row({ label, value, mono, strong }: { label: string; value: string; mono?: boolean; strong?: boolean }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className={cn("text-slate-600", strong && "font-medium text-slate-900")}>{label}</dt>
      <dd className={cn("text-right text-slate-900", mono && "truncate font-mono", strong && "font-semibold")}>
        {value}
      </dd>
    </div>
  );
}

function Notice({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
      <span className="mt-0.5 shrink-0 text-amber-600">{icon}</span>
      <div>
        <p className="font-semibold">{title}</p>
        <p className="mt-0.5 text-amber-800">{children}</p>
      </div>
    </div>
  );
}
