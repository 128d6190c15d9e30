// The page kinds that take a reader's email: the contact form, the newsletter (its page, its
// sign-up, the provider's frame) and the two mailed confirmation links (newsletter, release alert).

import type { Db } from "../../db/client.ts";
import { isBot } from "../../server/modules/analytics/visit-counter.ts";
import { confirmReleaseAlert, isReleaseAlertToken } from "../../server/modules/books/launches.service.ts";
import { receiveContactMessage } from "../../server/modules/contact/contact.service.ts";
import { isUnsubscribeToken, unsubscribeReader } from "../../server/modules/mail/unsubscribe.service.ts";
import {
  confirmNewsletterSubscriber,
  isConfirmToken,
  signUpForNewsletter,
} from "../../server/modules/newsletter/newsletter.service.ts";
import { CLICK_PATH, clickKeyFrom, followLink } from "../../server/modules/newsletter/newsletter-clicks.service.ts";
import { type SiteContext, sectionShown } from "../../server/modules/sites/sites.service.ts";
import {
  type ConfirmLink,
  confirmLinkPage,
  type FormAnswer,
  formNotAllowed,
  formStatus,
  type PageKind,
  pageKind,
  personal,
  plain,
  when,
} from "../answer.tsx";
import { embedDocument, HTML, type Out } from "../document.tsx";
import { ContactPage } from "../pages/contact-page.tsx";
import type { PageEnv } from "../pages/layout.tsx";
import { INVALID_LINK, NewsletterPage } from "../pages/newsletter-page.tsx";
import { magnetAfterConfirm } from "./magnet.tsx";

/** The demo takes no input: its forms answer 403 with the page again, whether or not the section is on. */
const READ_ONLY_FORMS = new Set(["/contact", "/newsletter", "/newsletter/confirm"]);
export const readOnlyForms = pageKind({
  name: "demo form (read-only)",
  match: (path, site) => when(site.readOnly && READ_ONLY_FORMS.has(path)),
  post(a) {
    const error = "The demo site is read-only.";
    const body =
      a.path === "/contact" ? <ContactPage env={a.env} error={error} /> : <NewsletterPage env={a.env} error={error} />;
    return personal(a.html({ status: 403, head: { title: `${a.name}` }, body }));
  },
});

export const contact = pageKind({
  name: "contact",
  match: (path, site) => when(path === "/contact" && site.ctx.website.contactEnabled),
  get: (a) =>
    a.html({
      status: 200,
      head: { title: `Contact | ${a.name}`, description: `Get in touch with ${a.ctx.profile.name}.` },
      body: <ContactPage env={a.env} />,
    }),
  async post(a) {
    const { ctx, deps, env } = a;
    // A page that only lists the author's addresses takes no message.
    if (!(ctx.contact?.enableContactForm ?? true)) return formNotAllowed();
    const outcome = await receiveContactMessage(
      { db: a.db, mailer: deps.mailer, logger: deps.logger, limiter: deps.sites.limits.contact },
      {
        userId: ctx.website.userId,
        antispam: ctx.contact?.antispamEnabled ?? true,
        clientAddress: a.ip,
        fields: a.fields,
        requestId: a.requestId,
      },
    );
    const body = outcome.ok ? <ContactPage env={env} done /> : <ContactPage env={env} error={outcome.error} />;
    return personal(a.html({ status: formStatus(outcome), head: { title: `Contact | ${a.name}` }, body }));
  },
});

export const newsletter = pageKind({
  name: "newsletter",
  match: (path, site) => when(path === "/newsletter" && sectionShown(site.ctx, "newsletter")),
  get: (a) =>
    a.html({
      status: 200,
      head: { title: `Newsletter | ${a.name}`, description: `Subscribe to ${a.ctx.profile.name}'s newsletter.` },
      body: <NewsletterPage env={a.env} />,
    }),
  async post(a) {
    const { deps, env } = a;
    const outcome = await signUpForNewsletter(
      { db: a.db, mailer: deps.mailer, logger: deps.logger, limits: deps.sites.limits },
      {
        userId: a.ctx.website.userId,
        clientAddress: a.ip,
        fields: a.fields,
        confirmUrl: (token) => `${env.origin}/newsletter/confirm?token=${encodeURIComponent(token)}`,
        requestId: a.requestId,
      },
    );
    const body = outcome.ok ? <NewsletterPage env={env} done /> : <NewsletterPage env={env} error={outcome.error} />;
    return personal(a.html({ status: formStatus(outcome), head: { title: `Newsletter | ${a.name}` }, body }));
  },
});

/**
 * A mailed confirmation link's page kind: GET shows the button (or 404 for a token of the wrong
 * shape, without asking the database), POST confirms.
 */
function confirmLinkKind(
  link: ConfirmLink,
  on: (site: PageEnv) => boolean,
  isToken: (token: string) => boolean,
  confirm: (db: Db, userId: string, token: string) => Promise<boolean>,
  /** What the page shows instead of `link.done` once confirmed, when it has more to give (null: nothing). */
  afterConfirm?: (a: FormAnswer, token: string) => Promise<Out | null>,
): PageKind<object> {
  return pageKind({
    name: `${link.title} confirmation link`,
    match: (path, site) => when(path === link.path && on(site)),
    get(a) {
      const token = a.c.req.query("token") ?? "";
      return isToken(token) ? confirmLinkPage(a, link, "ask", token) : confirmLinkPage(a, link, "invalid");
    },
    async post(a) {
      const token = a.fields.token ?? "";
      const done = await confirm(a.db, a.ctx.website.userId, token);
      const more = done && afterConfirm ? await afterConfirm(a, token) : null;
      return more ?? confirmLinkPage(a, link, done ? "done" : "invalid");
    },
  });
}

export const newsletterConfirm = confirmLinkKind(
  {
    path: "/newsletter/confirm",
    title: "Newsletter",
    invalid: INVALID_LINK,
    done: { heading: "Subscription confirmed", text: "Thank you for subscribing! You'll hear from me soon." },
  },
  (site) => site.ctx.website.newsletterEnabled,
  isConfirmToken,
  confirmNewsletterSubscriber,
  magnetAfterConfirm,
);

export const releaseAlertConfirm = confirmLinkKind(
  {
    path: "/alerts/confirm",
    title: "Release alert",
    invalid: "This confirmation link is not valid. Please ask again on the book's page.",
    ask: {
      heading: "Confirm your release alert",
      text: "Press the button to get one email when the book comes out.",
      button: "Confirm",
    },
    done: { heading: "You're on the list", text: "You'll get one email on the day the book comes out." },
  },
  (site) => site.ctx.website.booksEnabled,
  isReleaseAlertToken,
  confirmReleaseAlert,
);

const UNSUBSCRIBE: ConfirmLink = {
  path: "/unsubscribe",
  title: "Unsubscribe",
  invalid: "This unsubscribe link is not valid. Please use the link in the latest email you received.",
  ask: {
    heading: "Unsubscribe",
    text: "Press the button to stop getting these emails. It takes effect at once.",
    button: "Unsubscribe",
  },
  done: { heading: "You're unsubscribed", text: "You will get no more of these emails." },
};

/**
 * A reader's unsubscribe link (ADR 065), on every site whatever its sections: the link's GET shows
 * one button (mail scanners open links; a GET changes nothing), and a POST unsubscribes at once:
 * the button's, or a mail program's one-click POST (RFC 8058: `List-Unsubscribe=One-Click` to the
 * link itself, the token in its query, no cookie or session).
 */
export const unsubscribe = pageKind({
  name: "unsubscribe link",
  match: (path) => when(path === UNSUBSCRIBE.path),
  get(a) {
    const token = a.c.req.query("token") ?? "";
    return isUnsubscribeToken(token)
      ? confirmLinkPage(a, UNSUBSCRIBE, "ask", token)
      : confirmLinkPage(a, UNSUBSCRIBE, "invalid");
  },
  async post(a) {
    const token = a.fields.token || a.c.req.query("token") || "";
    const done = await unsubscribeReader(a.db, a.deps.unsubscribeKey, a.ctx.website.userId, token);
    return confirmLinkPage(a, UNSUBSCRIBE, done ? "done" : "invalid");
  },
});

/**
 * Author-provided HTML, on the author's own host only: under the app host's origin a phishing
 * form would carry our name (previews frame the site's own URL instead).
 */
export const newsletterEmbed = pageKind({
  name: "newsletter provider's frame",
  match: (path, site) =>
    when(
      path === "/newsletter/embed" &&
        site.ctx.website.newsletterEnabled &&
        site.mode === "tenant" &&
        embedCodeOf(site.ctx) !== "",
    ),
  get(a) {
    const code = embedCodeOf(a.ctx);
    // The provider's code runs only inside a sandboxed, opaque-origin frame: it cannot reach the
    // site. The site's own pages and the app host's previews of it may frame it.
    const appOrigin = new URL(a.deps.env.appOrigin).origin;
    return plain(200, embedDocument(code), {
      "Content-Type": HTML,
      "Content-Security-Policy": `sandbox allow-scripts allow-forms allow-popups; frame-ancestors 'self' ${appOrigin}`,
    });
  },
});

/** The provider's sign-up code the author pasted, "" if none (then the frame's address is not found). */
const embedCodeOf = (ctx: SiteContext) => ctx.customization?.newsletterEmbedCode?.trim() ?? "";

const NEWSLETTER_LINK: ConfirmLink = {
  path: CLICK_PATH,
  title: "Link",
  invalid: "This link is not valid. Please use the link in the email exactly as you received it.",
  done: { heading: "", text: "" },
};

/**
 * A counted link in a newsletter (ADR 069), on every site whatever its sections: counted (a GET by
 * a reader, not a preview or a known bot), then 302 to the address stored for that link. A token
 * changed, made up or signed for another site is a 404 page and counts nothing.
 */
export const newsletterLink = pageKind({
  name: "newsletter link",
  // "/go" too: a link cut short (its slash dropped) says the link is not valid, not "no such page".
  match: (path) =>
    path.startsWith(CLICK_PATH) || `${path}/` === CLICK_PATH ? { token: path.slice(CLICK_PATH.length) } : null,
  async get(a, { token }) {
    const { c, deps } = a;
    const count = a.req.mode !== "preview" && c.req.method === "GET" && !isBot(c.req.header("user-agent"));
    const to = await followLink(a.db, clickKeyFrom(deps.unsubscribeKey), a.ctx.website.userId, token, count);
    if (to === null) return confirmLinkPage(a, NEWSLETTER_LINK, "invalid");
    // The target sees the site, not the reader's token.
    return personal(plain(302, null, { Location: to, "X-Robots-Tag": "noindex", "Referrer-Policy": "origin" }));
  },
});
