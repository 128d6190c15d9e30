import { CUSTOM_DOMAIN_ADDON_MINOR, formatMoney, MONTHLY_PRICE_MINOR, PLANS, TRIAL_DAYS } from "../../shared/plans.ts";
import type { MarketingPage } from "../document.tsx";
import { PageHeading } from "../layout.tsx";

type QA = { q: string; a: string; link?: { href: string; label: string } };

const addon = formatMoney(CUSTOM_DOMAIN_ADDON_MINOR.USD, "USD");
const from = formatMoney(MONTHLY_PRICE_MINOR.mini.GBP, "GBP");

/** The 14 questions (spec: one open at a time, linking to contact and onboarding). */
export const FAQ: QA[] = [
  {
    q: "What is Bookplate?",
    a: "A website builder made for independent authors: a site with your books, bio, blog, newsletter sign-up and contact page, on a free address or your own domain.",
  },
  {
    q: "How long does it take to set up?",
    a: "About ten minutes: three short steps (about you, your site's name and address, your plan), then your card, and your site is live.",
    link: { href: "/signup", label: "Start now" },
  },
  {
    q: "How does the free trial work?",
    a: `You get ${TRIAL_DAYS} days free. We ask for a card to start, and the first payment is taken on day ${TRIAL_DAYS + 1}. Cancel before then and you pay nothing.`,
  },
  {
    q: "What do the plans cost?",
    a: `From ${from} a month. Every plan has every feature; they differ only in how many books your site holds: ${Object.values(
      PLANS,
    )
      .map((p) => `${p.name} up to ${p.bookLimit}`)
      .join(", ")}.`,
    link: { href: "/pricing", label: "See all prices" },
  },
  {
    q: "Which currencies can I pay in?",
    a: "Pounds, US dollars, euros, Canadian dollars and Australian dollars. You choose when you start, and prices are set for each currency, not converted daily.",
  },
  {
    q: "Can I use my own domain name?",
    a: `Yes. Every site has a free address, and you can connect your own domain at any time for ${addon} a month (or the stated equivalent in your currency). We set up HTTPS for it.`,
  },
  {
    q: "What happens if I cancel?",
    a: "Your site stays live to the end of the period you have paid for, then goes offline. Your books and pages are kept, and reactivating brings the site back as it was.",
  },
  {
    q: "What if I have more books than my plan allows?",
    a: "You can keep them all in your dashboard. After moving to a smaller plan, the books beyond its limit stop showing on your site until you upgrade or hide others; we ask before that happens.",
  },
  {
    q: "Do I need any technical knowledge?",
    a: "No. You fill in forms; we handle the design, the hosting, the security updates and the speed.",
  },
  {
    q: "Will my site be found in search engines?",
    a: "Each page carries a title, description and the structured data search engines read for books and articles; your site has a sitemap and loads fast on phones.",
  },
  {
    q: "Can readers sign up for my newsletter?",
    a: "Yes: readers confirm by email and you can download your subscriber list, or you can embed the form of the newsletter service you already use.",
  },
  {
    q: "Do you track my readers?",
    a: "No tracking cookies and no ad trackers: we count visits with a daily-changing anonymous tally that cannot identify anyone. See our privacy page.",
    link: { href: "/privacy-legal", label: "Privacy" },
  },
  {
    q: "Can I see an example first?",
    a: "Yes: the demo site shows everything a Bookplate site does, with sample books.",
    link: { href: "/demo", label: "Open the demo site" },
  },
  {
    q: "How do I get help?",
    a: "Signed in, use Help in your dashboard; otherwise write to us from the contact page. We answer by email.",
    link: { href: "/contact", label: "Contact us" },
  },
];

export function faqPage(): MarketingPage {
  return {
    status: 200,
    title: "Frequently asked questions",
    description: "Answers about Bookplate's free trial, plans, prices, custom domains, cancelling and privacy.",
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        mainEntity: FAQ.map((f) => ({
          "@type": "Question",
          name: f.q,
          acceptedAnswer: { "@type": "Answer", text: f.a },
        })),
      },
    ],
    body: (
      <>
        <PageHeading title="Frequently asked questions" lead="Everything people ask before they start." />
        <div className="mx-auto max-w-3xl space-y-3 px-6">
          {FAQ.map((f, i) => (
            // `name` makes the group an accordion with one open at a time, without JavaScript.
            <details key={f.q} name="faq" open={i === 0} className="group rounded-xl border border-slate-200 p-5">
              <summary className="cursor-pointer list-none font-semibold text-slate-900 marker:hidden">{f.q}</summary>
              <p className="mt-3 leading-7 text-slate-700">
                {f.a}{" "}
                {f.link ? (
                  <a href={f.link.href} className="font-semibold text-brand-700 underline">
                    {f.link.label}
                  </a>
                ) : null}
              </p>
            </details>
          ))}
        </div>
        <p className="mx-auto mt-10 max-w-3xl px-6 text-center text-slate-600">
          Another question?{" "}
          <a href="/contact" className="font-semibold text-brand-700 underline">
            Ask us
          </a>
          , or{" "}
          <a href="/signup" className="font-semibold text-brand-700 underline">
            start your free trial
          </a>
          .
        </p>
      </>
    ),
  };
}
