import type { MarketingPage } from "../document.tsx";
import { ENLARGE_SCRIPT, Gallery } from "../gallery.tsx";
import { buttonClass, PageHeading } from "../layout.tsx";

const PAIRS = [
  {
    problem: "General website builders know nothing about books: series, formats and stores are all hand-work.",
    solution: "Bookplate's book editor has fields for all of it, and every book gets its own page with a buy box.",
  },
  {
    problem: "Author sites are slow on phones, and slow pages lose readers and rank lower in search.",
    solution:
      "Pages are built on our server, ship no framework code and load in a blink; covers come in the size each screen needs.",
  },
  {
    problem: "A contact form that lands in spam, or a newsletter list on a service you have to pay for.",
    solution: "Messages reach the address you proved is yours; readers confirm their newsletter sign-up by email.",
  },
  {
    problem: "Custom domains mean DNS records, certificates and support tickets.",
    solution: "We show the exact records, check them for you and set up HTTPS once they are right.",
  },
];

/** The 16 feature cards. */
export const FEATURES = [
  ["Book pages", "A page per book with cover, blurb, formats, price, reviews and a buy button."],
  ["Cover uploads", "Upload any image: we crop nothing, strip its metadata and serve it sharp in three sizes."],
  ["Series", "Series name and number on every book, shown where readers look for them."],
  ["Retailer links", "Amazon plus any other store, each link checked before it is saved."],
  ["Reviews", "Quotes from readers and press, with optional star ratings."],
  ["Badges", "Bestseller and promotion badges for the books you are pushing this month."],
  ["Audiobooks", "Narrator and a listen-to-a-sample link for audio editions."],
  ["About page", "Your bio, photo and the genre you write, in your own words."],
  ["Blog", "News, events and releases, with an RSS feed readers can follow."],
  ["Newsletter", "A sign-up with double opt-in and a downloadable list, or your provider's own form."],
  ["Contact form", "Readers write to you without seeing your address; spam protection included."],
  ["Your look", "Colours, fonts, layout and your own hero image on the home page."],
  ["Free address", "A free address for every site, from the first day."],
  ["Your own domain", "Connect a domain you own; we check the DNS and set up HTTPS."],
  ["Search-ready", "Titles, descriptions, sitemap and the structured data search engines read for books."],
  ["Privacy first", "No tracking cookies: visits are counted anonymously, per day."],
] as const;

export function featuresPage(): MarketingPage {
  return {
    status: 200,
    title: "Features",
    description:
      "Book pages, covers, series, retailer links, reviews, blog, newsletter, contact form, your own domain: everything an author website needs.",
    script: ENLARGE_SCRIPT,
    body: (
      <>
        <PageHeading
          title="Everything an author website needs"
          lead="Built for books from the first field to the last, and nothing you have to maintain."
        />
        <section aria-labelledby="why" className="mx-auto max-w-5xl px-6">
          <h2 id="why" className="sr-only">
            Problems we solve
          </h2>
          <ul className="grid gap-6 md:grid-cols-2">
            {PAIRS.map((p) => (
              <li key={p.problem} className="rounded-2xl border border-slate-200 p-6">
                <p className="text-sm font-semibold text-slate-500 uppercase">The problem</p>
                <p className="mt-1 text-slate-800">{p.problem}</p>
                <p className="mt-4 text-sm font-semibold text-brand-700 uppercase">With Bookplate</p>
                <p className="mt-1 text-slate-800">{p.solution}</p>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="all" className="mx-auto mt-16 max-w-6xl px-6">
          <h2 id="all" className="text-center text-3xl font-bold tracking-tight text-slate-900">
            Every feature, on every plan
          </h2>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {FEATURES.map(([title, text]) => (
              <li key={title} className="rounded-xl bg-slate-50 p-5">
                <h3 className="font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-600">{text}</p>
              </li>
            ))}
          </ul>
        </section>
        <Gallery />
        <div className="mt-12 flex justify-center gap-3 px-6">
          <a href="/signup" className={buttonClass.primary}>
            Start your free trial
          </a>
          <a href="/demo" className={buttonClass.secondary}>
            See a demo site
          </a>
        </div>
      </>
    ),
  };
}
