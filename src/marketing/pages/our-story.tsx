import type { MarketingPage } from "../document.tsx";
import { PageHeading, Prose } from "../layout.tsx";

export function ourStoryPage(): MarketingPage {
  return {
    status: 200,
    title: "Our story",
    description:
      "Why we built Bookplate: independent authors deserve a website as good as their books, without the hand-work.",
    body: (
      <>
        <PageHeading title="Our story" lead="Why a website builder just for authors." />
        <Prose>
          <p>
            Bookplate started with a friend's first novel. She had written it, edited it, paid for a cover and published
            it herself — and then spent three weekends fighting a general-purpose website builder to make a page that
            said what the book was, where to buy it and who she was.
          </p>
          <p>
            The builders she tried knew about shops and portfolios, not books. Series had to be typed into the
            description, every store link was pasted by hand, the pages were slow on a phone, and the contact form sent
            readers' messages to her spam folder.
          </p>
          <p>
            So we built the site she wanted: a book editor that knows about formats, series, stores and reviews; pages
            that load in a blink and that search engines understand; a newsletter and a contact form that work; and a
            price an author at the start of a career can afford, with every feature on every plan.
          </p>
          <h2>What we promise</h2>
          <ul>
            <li>Your site is fast, accessible and yours: leave whenever you like.</li>
            <li>We never track your readers or sell anything about them.</li>
            <li>Plans differ only in how many books you show, never in what your site can do.</li>
          </ul>
          <p>
            Curious? <a href="/demo">Look around the demo site</a>, read the <a href="/faq">FAQ</a>, or{" "}
            <a href="/contact">write to us</a>.
          </p>
        </Prose>
      </>
    ),
  };
}
