import { withNext } from "../../shared/next-path.ts";
import { POPULAR_TIER } from "../../shared/plan-card.tsx";
import { formatMoney, MONTHLY_PRICE_MINOR, PLANS, TRIAL_DAYS } from "../../shared/plans.ts";
import type { MarketingPage } from "../document.tsx";
import { gallery, Shot } from "../gallery.tsx";
import { buttonClass } from "../layout.tsx";

/** The landing's main button: sign-up, then the wizard with the popular plan preselected. */
export const START_TRIAL_HREF = withNext("/signup", `/onboarding?tier=${POPULAR_TIER}`);

const GETS = [
  {
    title: "Made for books",
    text: "Covers in every size a screen needs, series and reading order, formats, prices, retailer links and reviews.",
  },
  {
    title: "Your story",
    text: "A bio page, a blog with its own RSS feed, and a contact form that reaches your inbox.",
  },
  { title: "Your readers", text: "A newsletter sign-up with double opt-in, or your own provider's form." },
  { title: "Your address", text: "A free web address from day one, or your own domain with HTTPS set up for you." },
  {
    title: "Fast and findable",
    text: "Pages load in a blink, work without JavaScript and carry the data search engines read.",
  },
  { title: "Yours to leave", text: "Cancel any time: your site stays up to the end of the period you paid for." },
];

const STEPS = [
  { title: "Tell us about you", text: "Your name and a few words: they start your About page." },
  { title: "Pick your address", text: "Choose a name for your site and its free address." },
  {
    title: "Choose a plan",
    text: `Start the ${TRIAL_DAYS}-day free trial; your site goes live as soon as you add a card.`,
  },
];

export function landingPage(): MarketingPage {
  const from = formatMoney(MONTHLY_PRICE_MINOR.mini.GBP, "GBP");
  return {
    status: 200,
    title: "Bookplate",
    description:
      "Bookplate builds a beautiful, fast website for independent authors: your books, your story and your readers, live in minutes.",
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "SoftwareApplication",
        name: "Bookplate",
        applicationCategory: "BusinessApplication",
        operatingSystem: "Web",
        offers: { "@type": "Offer", price: (MONTHLY_PRICE_MINOR.mini.GBP / 100).toFixed(2), priceCurrency: "GBP" },
      },
    ],
    body: (
      <>
        <section className="bg-gradient-to-b from-brand-50 to-white">
          <div className="mx-auto max-w-4xl px-6 pt-16 pb-20 text-center sm:pt-24">
            <p className="mb-4 inline-flex rounded-full bg-brand-100 px-3 py-1 text-xs font-semibold tracking-wide text-brand-700 uppercase">
              {TRIAL_DAYS}-day free trial
            </p>
            <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-6xl">
              A website as good as your books
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600 sm:text-xl">
              Bookplate gives independent authors a beautiful, fast website for their books, their story and their
              readers. Live in about ten minutes, from {from} a month.
            </p>
            <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
              {/* Straight to sign-up with the plan the pricing page recommends already chosen, and on
                  to the wizard after the mailed link: no detour through /pricing (issue 30). */}
              <a href={START_TRIAL_HREF} className={buttonClass.primary}>
                Start your free trial
              </a>
              <a href="/demo" className={buttonClass.secondary}>
                See a demo site
              </a>
              <a href="/pricing" className={buttonClass.secondary}>
                See pricing
              </a>
            </div>
          </div>
        </section>
        <Showcase />
        <section aria-labelledby="gets" className="mx-auto max-w-6xl px-6 py-16">
          <h2 id="gets" className="text-center text-3xl font-bold tracking-tight text-slate-900">
            What you get
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {GETS.map((g) => (
              <li key={g.title} className="rounded-2xl border border-slate-200 p-6">
                <h3 className="font-semibold text-slate-900">{g.title}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-600">{g.text}</p>
              </li>
            ))}
          </ul>
          <p className="mt-8 text-center">
            <a href="/features" className="font-semibold text-brand-700 underline">
              Every feature, and the problem it solves
            </a>
          </p>
        </section>
        <section aria-labelledby="how" className="bg-slate-50">
          <div className="mx-auto max-w-6xl px-6 py-16">
            <h2 id="how" className="text-center text-3xl font-bold tracking-tight text-slate-900">
              Live in three steps
            </h2>
            <ol className="mt-10 grid gap-6 sm:grid-cols-3">
              {STEPS.map((s, i) => (
                <li key={s.title} className="rounded-2xl bg-white p-6 shadow-sm">
                  <span className="text-sm font-semibold text-brand-700">Step {i + 1}</span>
                  <h3 className="mt-1 font-semibold text-slate-900">{s.title}</h3>
                  <p className="mt-2 text-sm leading-6 text-slate-600">{s.text}</p>
                </li>
              ))}
            </ol>
          </div>
        </section>
        <section aria-labelledby="price" className="mx-auto max-w-4xl px-6 py-16 text-center">
          <h2 id="price" className="text-3xl font-bold tracking-tight text-slate-900">
            One price per plan, every feature in each
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Plans differ only in how many books your site holds:{" "}
            {Object.values(PLANS)
              .map((p) => `${p.name} ${p.bookLimit}`)
              .join(", ")}
            . From {from} a month after a {TRIAL_DAYS}-day free trial; cancel any time.
          </p>
          <div className="mt-8 flex justify-center gap-3">
            <a href="/pricing" className={buttonClass.primary}>
              Compare plans
            </a>
            <a href="/faq" className={buttonClass.secondary}>
              Questions?
            </a>
          </div>
        </section>
      </>
    ),
  };
}

/** A real author's site and the dashboard that makes it (from the features gallery). */
function Showcase() {
  const pick = (slug: string) => gallery().find((g) => g.slug === slug);
  const shots = [
    { entry: pick("site-book"), caption: "A book page on an author's site" },
    { entry: pick("dashboard"), caption: "The dashboard behind it" },
  ];
  if (shots.some((s) => !s.entry)) return null;
  return (
    <section aria-label="Bookplate at work" className="mx-auto max-w-6xl px-6">
      <div className="grid gap-8 md:grid-cols-2">
        {shots.map(({ entry, caption }) =>
          entry ? (
            <figure key={entry.slug}>
              <Shot entry={entry} sizes="(min-width: 768px) 544px, 100vw" />
              <figcaption className="mt-3 text-center text-sm text-slate-600">{caption}</figcaption>
            </figure>
          ) : null,
        )}
      </div>
      <p className="mt-6 text-center">
        <a href="/features" className="font-semibold text-brand-700 underline">
          More screens
        </a>
      </p>
    </section>
  );
}
