// The public pricing page: the one price table in the chosen currency, four plan cards, what every
// plan includes and how Bookplate compares. The currency selector is links, so it works without
// JavaScript; each plan's button goes to /pricing/choose, where the app sends a visitor through
// sign-up and the wizard, and an author to their plan screen.
import { CURRENCIES, type Currency, TIERS } from "../../shared/enums.ts";
import { PlanCard, POPULAR_TIER } from "../../shared/plan-card.tsx";
import { CUSTOM_DOMAIN_ADDON_MINOR, formatMoney, MONTHLY_PRICE_MINOR, PLANS, TRIAL_DAYS } from "../../shared/plans.ts";
import type { MarketingPage } from "../document.tsx";
import { buttonClass } from "../layout.tsx";

const INCLUDED = [
  "A book-focused website on your own free address",
  "Connect your own domain name",
  "Books with covers, series, formats and prices",
  "Retailer links for every store that sells your books",
  "Reader reviews and star ratings",
  "A blog with categories and an RSS feed",
  "Newsletter sign-up with confirmation by email",
  "A contact form that reaches your inbox",
  "Fast pages that search engines understand",
  "Your fonts, colours and header, your way",
];

/** What the alternatives typically cost a month, stated per currency (not converted). */
const TYPICAL: Record<Currency, { builder: string; blog: string; custom: string }> = {
  GBP: { builder: "£15+", blog: "£12+", custom: "£1,000+ up front" },
  USD: { builder: "$19+", blog: "$15+", custom: "$1,300+ up front" },
  EUR: { builder: "€17+", blog: "€14+", custom: "€1,200+ up front" },
  CAD: { builder: "C$26+", blog: "C$20+", custom: "C$1,800+ up front" },
  AUD: { builder: "A$29+", blog: "A$23+", custom: "A$2,000+ up front" },
};

type Cell = boolean | string;

function comparison(currency: Currency): { label: string; cells: [Cell, Cell, Cell, Cell] }[] {
  const t = TYPICAL[currency];
  return [
    { label: "Made for books (series, formats, retailers)", cells: [true, false, false, true] },
    { label: "Live the same day", cells: [true, true, true, false] },
    { label: "Book structured data for search", cells: [true, false, false, "Extra cost"] },
    { label: "No design skills needed", cells: [true, "Partly", "Partly", true] },
    {
      label: "Typical monthly cost",
      cells: [`From ${formatMoney(MONTHLY_PRICE_MINOR.mini[currency], currency)}`, t.builder, t.blog, t.custom],
    },
  ];
}

function CellText({ value }: { value: Cell }) {
  if (value === true) return <span className="font-semibold text-emerald-700">Yes</span>;
  if (value === false) return <span className="text-slate-500">No</span>;
  return <>{value}</>;
}

/**
 * `signedIn`: the visitor's browser holds a session (as the header knows it, ADR 041): the plans
 * lead to choosing one in the dashboard, not to a free trial they already have.
 */
export function pricingPage(currency: Currency, signedIn = false): MarketingPage {
  const addon = formatMoney(CUSTOM_DOMAIN_ADDON_MINOR[currency], currency);
  return {
    status: 200,
    title: "Pricing",
    description: `Every Bookplate plan has every feature; plans differ only in how many books you show. From ${formatMoney(MONTHLY_PRICE_MINOR.mini[currency], currency)} a month after a ${TRIAL_DAYS}-day free trial.`,
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Product",
        name: "Bookplate",
        description: "Websites for independent authors",
        offers: TIERS.map((tier) => ({
          "@type": "Offer",
          name: PLANS[tier].name,
          price: (MONTHLY_PRICE_MINOR[tier][currency] / 100).toFixed(2),
          priceCurrency: currency,
        })),
      },
    ],
    body: (
      <div className="mx-auto max-w-6xl px-6">
        <section aria-labelledby="pricing-title" className="pt-16 text-center">
          <h1 id="pricing-title" className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            Simple, transparent pricing
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
            Every plan has every feature; plans differ only in how many books you show. Try any plan free for{" "}
            {TRIAL_DAYS} days.
          </p>
          <nav
            aria-label="Currency"
            className="mt-8 inline-flex flex-wrap justify-center gap-1 rounded-xl bg-slate-100 p-1"
          >
            {CURRENCIES.map((c) => (
              <a
                key={c}
                href={`/pricing?currency=${c}`}
                aria-current={c === currency ? "true" : undefined}
                className={`rounded-lg px-4 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-brand-600 ${c === currency ? "bg-white text-slate-900 shadow-sm" : "text-slate-700 hover:text-slate-900"}`}
              >
                {c}
              </a>
            ))}
          </nav>
          {signedIn ? (
            <p className="mt-6 text-slate-700" data-testid="signed-in-plan">
              You are signed in: your plan and billing are in your dashboard.{" "}
              <a href="/dashboard/plan" className="font-semibold text-brand-700 underline">
                Go to your dashboard
              </a>
            </p>
          ) : null}
        </section>
        <section aria-label="Plans" className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {TIERS.map((tier) => (
            <PlanCard key={tier} tier={tier} currency={currency}>
              <a
                href={`/pricing/choose?tier=${tier}&currency=${currency}`}
                className={`w-full ${tier === POPULAR_TIER ? buttonClass.primary : buttonClass.secondary}`}
              >
                {signedIn ? (
                  <>
                    Choose {PLANS[tier].name}
                    <span className="sr-only"> in your dashboard</span>
                  </>
                ) : (
                  <>
                    Start Free Trial<span className="sr-only"> on {PLANS[tier].name}</span>
                  </>
                )}
              </a>
            </PlanCard>
          ))}
        </section>
        <p className="mt-6 text-center text-sm text-slate-600" data-testid="domain-addon">
          Your own domain, like janeauthor.com, on any plan: +{addon}/month. Every site also keeps its free address.
        </p>
        <section aria-labelledby="included" className="mt-20">
          <h2 id="included" className="text-center text-2xl font-bold text-slate-900">
            Everything in every plan
          </h2>
          <ul className="mx-auto mt-8 grid max-w-4xl list-disc gap-3 pl-5 sm:grid-cols-2">
            {INCLUDED.map((f) => (
              <li key={f} className="text-slate-700">
                {f}
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="compare" className="mt-20">
          <h2 id="compare" className="text-center text-2xl font-bold text-slate-900">
            How Bookplate compares
          </h2>
          {/* A phone scrolls the table sideways; the keyboard must be able to as well (axe: scrollable-region-focusable). */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling box itself takes focus so arrow keys scroll it */}
          {/* biome-ignore lint/a11y/useSemanticElements: a <section> here would repeat the one it sits in */}
          <div className="mt-8 overflow-x-auto" tabIndex={0} role="region" aria-label="Comparison table">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <thead>
                <tr className="border-b border-slate-200 text-slate-900">
                  <th scope="col" className="py-3 pr-4 font-semibold">
                    <span className="sr-only">Feature</span>
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold text-brand-700">
                    Bookplate
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    General site builder
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Blog platform
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Custom-built site
                  </th>
                </tr>
              </thead>
              <tbody>
                {comparison(currency).map((row) => (
                  <tr key={row.label} className="border-b border-slate-100">
                    <th scope="row" className="py-3 pr-4 font-medium text-slate-700">
                      {row.label}
                    </th>
                    {row.cells.map((cell, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
                      <td key={i} className="px-4 py-3 text-slate-700">
                        <CellText value={cell} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
        <section className="mt-20 rounded-2xl bg-brand-700 px-6 py-12 text-center text-white">
          <h2 className="text-2xl font-bold">Your readers are looking for you</h2>
          <p className="mx-auto mt-3 max-w-xl">
            {signedIn
              ? "Your site, your books and your plan are one click away."
              : `Set up your author website in minutes. No card is charged until day ${TRIAL_DAYS + 1}.`}
          </p>
          <a
            href={signedIn ? "/dashboard" : `/pricing/choose?tier=midi&currency=${currency}`}
            className="mt-6 inline-flex items-center justify-center rounded-lg bg-white px-5 py-3 text-sm font-semibold text-brand-700 shadow-sm hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            {signedIn ? "Go to your dashboard" : "Start your free trial"}
          </a>
        </section>
      </div>
    ),
  };
}
