// Terms, privacy and cookies, written for Bookplate as it behaves (the code they describe is named
// in comments, so a change there is a reminder to change the words here).
import { CUSTOM_DOMAIN_ADDON_MINOR, formatMoney, TRIAL_DAYS } from "../../shared/plans.ts";
import type { MarketingPage } from "../document.tsx";
import { PageHeading, Prose } from "../layout.tsx";

const UPDATED = "24 November 2026";

export function termsPage(): MarketingPage {
  return {
    status: 200,
    title: "Terms of service",
    description: "The terms for using Bookplate: trial, billing, cancelling, your content and acceptable use.",
    body: (
      <>
        <PageHeading title="Terms of service" lead={`Last updated ${UPDATED}.`} />
        <Prose>
          <p>
            These terms are the agreement between you (the author who signs up) and us (Bookplate) for using the
            Bookplate service: the dashboard, your public website and everything we host for it.
          </p>
          <h2>Your account</h2>
          <p>
            You need a confirmed email address and a password to use Bookplate. Keep your password to yourself; you can
            turn on two-factor authentication and see and end your signed-in sessions under Account.
          </p>
          <h2>Free trial and payment</h2>
          <ul>
            <li>
              Every plan starts with a {TRIAL_DAYS}-day free trial. We ask for a card to start it; the first payment is
              taken on day {TRIAL_DAYS + 1} unless you cancel before.
            </li>
            <li>
              Plans are billed monthly, in the currency you chose, at the price shown on the pricing page when you
              subscribed. Card payments are processed by Stripe; we never see or keep your card number.
            </li>
            <li>
              Connecting your own domain adds {formatMoney(CUSTOM_DOMAIN_ADDON_MINOR.USD, "USD")} a month (or the stated
              equivalent in your currency) while the domain is connected.
            </li>
            <li>Changing plan takes effect at once; the difference is prorated by Stripe.</li>
          </ul>
          <h2>Cancelling</h2>
          <p>
            You can cancel at any time from your dashboard. Your site stays live to the end of the period you paid for,
            then goes offline; we keep your content, and reactivating your subscription brings the site back. During the
            trial, cancelling means you are never charged.
          </p>
          <h2>Plan limits</h2>
          <p>
            Plans differ only in how many books your site shows. If you move to a plan that holds fewer books than you
            show, the books beyond its limit stay in your dashboard but stop showing on your site; we tell you which
            before you confirm.
          </p>
          <h2>Your content</h2>
          <p>
            Your books, texts and images remain yours. You give us the permission we need to store them and show them on
            your site. You are responsible for having the rights to what you publish.
          </p>
          <h2>Acceptable use</h2>
          <p>
            Do not use Bookplate for anything unlawful, for spam, malware or phishing, or to infringe other people's
            rights. We may suspend an account that does: its sessions end and its site shows as unavailable while we
            look into it. We tell you why and how to reach us.
          </p>
          <h2>Our service</h2>
          <p>
            We work to keep Bookplate fast and available and to keep your data safe, but we cannot promise that it will
            never be interrupted. To the extent the law allows, our liability is limited to what you paid us in the
            twelve months before the claim.
          </p>
          <h2>Changes</h2>
          <p>
            If we change these terms in a way that matters, we email you at least 30 days before the change applies.
          </p>
          <h2>Contact</h2>
          <p>
            Questions about these terms: <a href="/contact">contact us</a>.
          </p>
        </Prose>
      </>
    ),
  };
}

export function privacyPage(): MarketingPage {
  return {
    status: 200,
    title: "Privacy",
    description:
      "What Bookplate keeps about authors and their readers, why, for how long, and how to get it or have it deleted.",
    body: (
      <>
        <PageHeading title="Privacy" lead={`Last updated ${UPDATED}.`} />
        <Prose>
          <h2>About authors (our customers)</h2>
          <ul>
            <li>
              Your account: name, email address, a hash of your password (never the password), and, if you turn it on,
              your two-factor secret and backup codes.
            </li>
            <li>
              Your signed-in sessions: when they started and were last used, the network address and the browser they
              came from, so you can recognise and end them under Account. A session ends when you sign out, and after 30
              days without use.
            </li>
            <li>What you put on your site: books, covers, texts, images and settings.</li>
            <li>
              Your subscription and payments: plan, currency, status and the amounts paid. Stripe processes the card
              payments; we never see your card number.
            </li>
            <li>Messages you send our support team, and their answers.</li>
          </ul>
          <h2>About the readers of author sites</h2>
          <ul>
            <li>
              Visits are counted without cookies: a visitor is recognised within one day by a hash of their network
              address and browser mixed with a random value that lives only in our server's memory and is replaced every
              midnight (UTC). We store only the daily totals per site — page views and unique visitors — never the
              address or the hash.
            </li>
            <li>
              A reader who writes through an author's contact form gives their name, email, subject and message: we keep
              them for the author and email them to the author's confirmed address.
            </li>
            <li>
              A reader who signs up for an author's newsletter gives their email address: we keep it for that author,
              with the date, and ask the reader to confirm by email before it counts.
            </li>
          </ul>
          <h2>What we do not do</h2>
          <p>
            No advertising, no tracking cookies, no selling or sharing of data. Our email goes out through our mail
            provider; payments go through Stripe. Nothing else leaves our systems.
          </p>
          <h2>How long we keep it</h2>
          <p>
            As long as your account exists. Payment records are kept for as long as tax law requires. Site visit totals
            are kept for as long as the site exists.
          </p>
          <h2>Your rights</h2>
          <p>
            You can see and correct most of your data in the dashboard. To get a copy of everything we hold about you,
            or to have your account and site deleted, write to us from Help in your dashboard or from the{" "}
            <a href="/contact">contact page</a>; we do it within 30 days. Readers of an author's site can ask the same
            for their contact messages and newsletter sign-ups.
          </p>
          <p>
            More about cookies: <a href="/cookies">cookie policy</a>.
          </p>
        </Prose>
      </>
    ),
  };
}

export function cookiesPage(): MarketingPage {
  return {
    status: 200,
    title: "Cookies",
    description: "The few cookies Bookplate sets, what each is for and how long it lasts. No tracking cookies.",
    body: (
      <>
        <PageHeading title="Cookies" lead="Only what the service needs to work. No tracking, no advertising." />
        <Prose>
          <h2>In the dashboard (signed-in authors)</h2>
          <ul>
            <li>
              <code>better-auth.session_token</code>: keeps you signed in. Only readable by our server, only sent over
              HTTPS in production, and only to the dashboard — never to author sites. It lasts 30 days and is renewed
              while you use Bookplate; signing out removes it.
            </li>
            <li>
              <code>better-auth.dont_remember</code> and the two-factor cookies: set only during sign-in (to remember
              whether you asked to stay signed in, and, if you chose to trust a device, to skip the code there).
            </li>
          </ul>
          <h2>On author sites</h2>
          <ul>
            <li>
              <code>cookie_consent</code>: remembers your answer to the cookie banner for a year, so it is not asked
              again. It is set only when you answer.
            </li>
            <li>
              Visits are counted without any cookie (see our <a href="/privacy-legal">privacy page</a>).
            </li>
          </ul>
          <h2>On these pages</h2>
          <ul>
            <li>
              <code>pricing_currency</code>: the currency you picked on the pricing page, so the next page you open
              shows the same one. It goes when you close your browser.
            </li>
          </ul>
        </Prose>
      </>
    ),
  };
}
