// The copy of a newsletter a reader gets (ADR 066): the frame in the one mail layout, made from
// scratch (`makeCopyDirect`, the reference) or from a newsletter's template kept for a few seconds
// with only the reader's parts filled in (`makeNewsletterCopy`, what the sending lane uses).
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db/client.ts";
import { NEWSLETTER_MESSAGES } from "../../../shared/schemas/newsletter.ts";
import { notFoundError } from "../../lib/domain-error.ts";
import type { Mail, NewsletterCopy } from "../mail/mail.service.ts";
import { authorHtml, footnote, join, mailParts, postalAddress } from "../mail/mail-layout.ts";
import { unsubscribeToken, unsubscribeUrl } from "../mail/unsubscribe.service.ts";
import { type MailBook, mailBookCardBooks, withMailBookCards } from "./newsletter-book-cards.ts";
import {
  CLICK_PATH,
  clickKeyFrom,
  clickToken,
  countedLinks,
  newsletterLinkIds,
  readerOf,
  rewriteLinks,
} from "./newsletter-clicks.service.ts";
import * as q from "./newsletters.queries.ts";

export const newsletterNotFound = () => notFoundError(NEWSLETTER_MESSAGES.notFound);

/** Where the author's site is, for links in a copy. */
export type SiteAddress = { protocol: string; sitesDomain: string };

export const siteHost = (s: { subdomain: string | null; customDomain: string | null }, site: SiteAddress) =>
  s.customDomain ?? `${s.subdomain ?? ""}.${site.sitesDomain}`;

export type CopyFrame = {
  subject: string;
  /** Cleaned author HTML (as stored). */
  contentHtml: string;
  authorName: string;
  /** The author's site, e.g. jane.bookplate.example. */
  siteHost: string;
  siteUrl: string;
  /** The reader's own way out; null in the author's test copy. */
  unsubscribeUrl: string | null;
  /** The books its book cards name (ADR 071). */
  books?: Map<string, MailBook>;
  /** The author's postal address, under the small print when given (ADR 071). */
  postalAddress?: string | null;
};

/**
 * A newsletter as a reader gets it, in the one mail layout (ADR 065): the author's writing, then
 * why they get it and their one-click way out (the author's test copy has none: they are on no list).
 */
export function newsletterFrame(f: CopyFrame): { html: string; text: string } {
  const why = `You receive this because you subscribed to the newsletter of ${f.siteHost}.`;
  return mailParts({
    title: f.subject,
    body: withMailBookCards(authorHtml(f.contentHtml), f.books ?? new Map(), f.siteUrl),
    footer: join(
      f.unsubscribeUrl
        ? footnote([`${why} `, { href: f.unsubscribeUrl, label: "Unsubscribe" }])
        : footnote([`${why} Readers get a link to unsubscribe here.`]),
      postalAddress(f.postalAddress),
    ),
  });
}

/** The stable Message-ID of one reader's copy: the same on every attempt and in every process. */
export function copyMessageId(newsletterId: string, subscriberId: string, mailFrom: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(mailFrom)?.[1] ?? "bookplate.local";
  return `<newsletter-${newsletterId}-${subscriberId}@${domain}>`;
}

/**
 * One reader's copy made from scratch, every part read and rendered for this copy alone: what
 * `makeNewsletterCopy` makes from a newsletter's template must be exactly this (tested), and what
 * it falls back to if ever a template cannot be made. Null when the reader is no longer confirmed.
 */
export async function makeCopyDirect(
  db: Db,
  site: SiteAddress,
  mailFrom: string,
  keys: { unsubscribe: string; click: string },
  { newsletterId, subscriberId }: { newsletterId: string; subscriberId: string },
): Promise<Mail | null> {
  const c = await q.selectCopy(db, newsletterId, subscriberId);
  if (c?.subscriberStatus !== "confirmed") return null;
  const host = siteHost(c, site);
  const unsubscribe = unsubscribeUrl(keys.unsubscribe, `${site.protocol}//${host}`, {
    list: "newsletter",
    userId: c.userId,
    subscriberId,
  });
  // Counting clicks: this reader's links go through the site's signed redirect (ADR 069).
  const contentHtml = c.countClicks
    ? await countedLinks(db, keys.click, {
        newsletterId,
        userId: c.userId,
        subscriberId,
        siteOrigin: `${site.protocol}//${host}`,
        html: c.content,
      })
    : c.content;
  const frame = newsletterFrame({
    subject: c.subject,
    contentHtml,
    authorName: c.authorName ?? "",
    siteHost: host,
    siteUrl: `${site.protocol}//${host}/`,
    unsubscribeUrl: unsubscribe,
    books: await mailBookCardBooks(db, c.userId, c.content),
    postalAddress: c.postalAddress,
  });
  // From the author's name at our address, answered to the author; written by a person, so no
  // Auto-Submitted; the reader's own one-click way out (ADR 065).
  return {
    to: c.email,
    subject: c.subject,
    text: frame.text,
    html: frame.html,
    fromName: c.authorName || host,
    listUnsubscribeUrl: unsubscribe,
    replyTo: { name: c.authorName ?? "", address: c.authorEmail },
    messageId: copyMessageId(newsletterId, subscriberId, mailFrom),
  };
}

/** A rendered text with holes: strings as they are, numbers the per-reader part that goes there. */
type Slotted = (string | number)[];

/**
 * What every copy of one newsletter shares, rendered once (ADR 066): the frame's HTML and text
 * with holes for the reader's parts — hole 0 their unsubscribe token, hole i the click token of
 * the newsletter's i-th counted link.
 */
type CopyTemplate = {
  userId: string;
  subject: string;
  origin: string;
  fromName: string;
  replyTo: { name: string; address: string };
  html: Slotted;
  text: Slotted;
  /** The counted links' ids, hole 1 onwards. */
  linkIds: string[];
};

/** How long a newsletter's template is used before it is read and rendered again (the author may rename themselves mid-send). */
const TEMPLATE_MS = 10_000;

/**
 * The outbox's maker of copies (ADR 066): null when the reader is no longer confirmed. The
 * newsletter's frame, text part and book cards are rendered once (for `TEMPLATE_MS`) with a
 * marker where each per-reader part goes; a copy is then one read of its reader and the markers
 * filled in: the same bytes as a copy made from scratch (`makeCopyDirect`).
 */
export function makeNewsletterCopy(
  db: Db,
  site: SiteAddress,
  mailFrom: string,
  unsubscribeKey: string,
): NewsletterCopy {
  const keys = { unsubscribe: unsubscribeKey, click: clickKeyFrom(unsubscribeKey) };
  // Letters and digits only, so escaping and the text part leave a marker as it is; random, so no
  // author's words can hold one by chance.
  const nonce = randomBytes(9).toString("hex");
  const marker = (i: number) => `bookplate${nonce}hole${i}end`;
  const markers = new RegExp(`bookplate${nonce}hole([0-9]+)end`, "g");
  const holes = (rendered: string): Slotted => {
    const out: Slotted = [];
    let at = 0;
    for (const m of rendered.matchAll(markers)) {
      out.push(rendered.slice(at, m.index), Number(m[1]));
      at = m.index + m[0].length;
    }
    out.push(rendered.slice(at));
    return out;
  };

  async function template(newsletterId: string): Promise<CopyTemplate | null> {
    const c = await q.selectCopyShared(db, newsletterId);
    if (!c || c.content.includes(nonce)) return null;
    const host = siteHost(c, site);
    const origin = `${site.protocol}//${host}`;
    const linkIds: string[] = [];
    let contentHtml = c.content;
    if (c.countClicks) {
      const links = await newsletterLinkIds(db, newsletterId);
      contentHtml = rewriteLinks(c.content, (url) => {
        const id = links.get(url);
        if (!id) return null;
        if (!linkIds.includes(id)) linkIds.push(id);
        return `${origin}${CLICK_PATH}${marker(linkIds.indexOf(id) + 1)}`;
      });
    }
    const frame = newsletterFrame({
      subject: c.subject,
      contentHtml,
      authorName: c.authorName ?? "",
      siteHost: host,
      siteUrl: `${origin}/`,
      unsubscribeUrl: `${origin}/unsubscribe?token=${marker(0)}`,
      books: await mailBookCardBooks(db, c.userId, c.content),
      postalAddress: c.postalAddress,
    });
    return {
      userId: c.userId,
      subject: c.subject,
      origin,
      fromName: c.authorName || host,
      replyTo: { name: c.authorName ?? "", address: c.authorEmail },
      html: holes(frame.html),
      text: holes(frame.text),
      linkIds,
    };
  }

  const templates = new Map<string, { until: number; made: Promise<CopyTemplate | null> }>();
  const templateOf = (newsletterId: string) => {
    const now = Date.now();
    for (const [id, t] of templates) if (t.until <= now) templates.delete(id);
    let t = templates.get(newsletterId);
    if (!t) {
      t = { until: now + TEMPLATE_MS, made: template(newsletterId) };
      templates.set(newsletterId, t);
      t.made.catch(() => templates.delete(newsletterId));
    }
    return t.made;
  };

  return async (row) => {
    const t = await templateOf(row.newsletterId);
    if (!t) return makeCopyDirect(db, site, mailFrom, keys, row);
    const reader = await q.selectReader(db, t.userId, row.subscriberId);
    if (reader?.status !== "confirmed") return null;
    const token = unsubscribeToken(keys.unsubscribe, {
      list: "newsletter",
      userId: t.userId,
      subscriberId: row.subscriberId,
    });
    const parts = [
      token,
      ...t.linkIds.map((id) => clickToken(keys.click, t.userId, id, readerOf(keys.click, id, row.subscriberId))),
    ];
    const fill = (s: Slotted) => s.map((p) => (typeof p === "number" ? parts[p] : p)).join("");
    return {
      to: reader.email,
      subject: t.subject,
      text: fill(t.text),
      html: fill(t.html),
      fromName: t.fromName,
      listUnsubscribeUrl: `${t.origin}/unsubscribe?token=${token}`,
      replyTo: t.replyTo,
      messageId: copyMessageId(row.newsletterId, row.subscriberId, mailFrom),
    };
  };
}

/**
 * The newsletter as the author's readers get it, for the author's eyes (the test and the editor's
 * preview): the same frame, without a reader's unsubscribe link.
 */
