// Launches (issue 17): a book with a future release date is a pre-order. Readers ask to be told
// when it is out (double opt-in, per book, like the newsletter); on release day a job mails each
// confirmed reader once, through the outbox's paced lane like a newsletter's copies (ADR 073),
// with a link to the book page. The author sees the counts and can send themselves the mail first.
//
// Words: a *launch* is a book's coming out (its pre-order page, the sign-ups, the launch-day mail);
// a *release alert* is one reader's sign-up to be told — the same words on screen, in mail, in the
// API (`/books/{id}/release-alerts`), the table (`release_alerts`) and the code.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../../../db/client.ts";
import { bookPath } from "../../../shared/book-path.ts";
import { formatDate } from "../../../shared/dates.ts";
import { DomainError, type FormOutcome } from "../../lib/domain-error.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Limiter } from "../../lib/rate-limiter.ts";
import { sendConfirmationMail } from "../mail/confirmation-mail.service.ts";
import type { Mail, MailSender, ReleaseAlertCopy, ReleaseAlertQueue } from "../mail/mail.service.ts";
import { button, footnote, heading, join, mailParts, paragraph, postalAddress } from "../mail/mail-layout.ts";
import { unsubscribeUrl } from "../mail/unsubscribe.service.ts";
import { postalAddressOf } from "../newsletter/newsletter-archive.service.ts";
import { contactDeliveryAddress } from "../settings/contact-email.service.ts";
import { bookNotFound } from "./books.service.ts";
import * as q from "./launches.queries.ts";

const DAY_MS = 24 * 60 * 60_000;
const emailSchema = z.object({ email: z.email("Please enter a valid email address").max(320) });

/** The UTC day of `now`, as the release dates are stored (YYYY-MM-DD). */
export const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/**
 * The UTC midnight that starts `now`'s day, in ms since the epoch: `Date.parse` of `dayOf(now)`
 * at 00:00Z, without a date string (a book page asks this three times per render).
 */
const dayStarts = (now: Date) => Math.floor(now.getTime() / DAY_MS) * DAY_MS;

/** Whole days from `now`'s day to the release date: positive while the book is a pre-order. */
export function daysUntil(releaseDate: string | null, now: Date): number | null {
  if (!releaseDate || !/^\d{4}-\d{2}-\d{2}$/.test(releaseDate)) return null;
  return Math.round((Date.parse(`${releaseDate}T00:00:00Z`) - dayStarts(now)) / DAY_MS);
}

/** When a page that counts days down stops being right: the next UTC midnight. */
export const nextDayStarts = (now: Date) => dayStarts(now) + DAY_MS;

/** A confirmation token as we make them: anything else is not looked up. */
export const isReleaseAlertToken = (token: string) => /^[A-Za-z0-9_-]{16,64}$/.test(token);

export type ReleaseAlertSignUp = {
  userId: string;
  book: { id: string; releaseDate: string | null };
  clientAddress: string;
  fields: Record<string, string>;
  confirmUrl: (token: string) => string;
  now?: Date;
  requestId?: string;
};
export type ReleaseAlertDeps = {
  db: Db;
  mailer: MailSender;
  logger: Logger;
  limits: { signUp: Limiter; confirmMail: Limiter };
};

/** The public form: the same answer whoever asked before, so it reveals nothing about readers. */
export async function signUpForReleaseAlert(deps: ReleaseAlertDeps, r: ReleaseAlertSignUp): Promise<FormOutcome> {
  const days = daysUntil(r.book.releaseDate, r.now ?? new Date());
  if (days === null || days <= 0) return { ok: false, code: "bad_request", error: "This book is already out." };
  const parsed = emailSchema.safeParse(r.fields);
  if (!parsed.success) return { ok: false, code: "validation_failed", error: parsed.error.issues[0]?.message };
  if (!(await deps.limits.signUp.take(`alert|${r.userId}|${r.clientAddress}`))) {
    return { ok: false, code: "rate_limited", error: "Too many sign-ups. Please try again later." };
  }
  const email = parsed.data.email.toLowerCase();
  const token = await q.pendingToken(deps.db, {
    userId: r.userId,
    bookId: r.book.id,
    email,
    token: randomBytes(24).toString("base64url"),
  });
  if (token && (await deps.limits.confirmMail.take(`alert|${r.book.id}|${email}`))) {
    const link = r.confirmUrl(token);
    // Like the newsletter's: no author text (title, site name); the book by its release date.
    await sendConfirmationMail(deps, {
      to: email,
      link,
      subject: (site) => `Please confirm your release alert at ${site}`,
      text: (site) =>
        `Hello,\n\nSomeone (we hope you) asked the website ${site} to send one mail when a book comes out` +
        ` (${formatDate(r.book.releaseDate, "long")}).\nTo confirm, open this link and press "Confirm":\n\n` +
        `${link}\n\nIf it was not you, ignore this mail: nothing will be sent.\n`,
      failed: "release alert confirmation mail failed",
      requestId: r.requestId,
    });
  }
  return { ok: true };
}

export async function confirmReleaseAlert(db: Db, userId: string, token: string): Promise<boolean> {
  if (!isReleaseAlertToken(token)) return false;
  return q.confirmByToken(db, userId, token);
}

type ReleaseBook = {
  bookId: string;
  slug: string;
  title: string;
  author: string;
  siteName: string;
  subdomain: string | null;
  customDomain: string | null;
};

/** The site's own origin, as a reader's links open it. */
const siteOriginOf = (b: ReleaseBook, site: SiteAddress) =>
  `${site.protocol}//${b.customDomain ?? `${b.subdomain ?? ""}.${site.sitesDomain}`}`;

/**
 * The release mail, the same for readers and for the author's test: from the site's name at our
 * address, answered to the author's proven contact address, with the reader's one-click
 * unsubscribe link (the author's test has none: they are on no list). ADR 065.
 */
function releaseMail(
  to: string,
  b: ReleaseBook,
  site: SiteAddress,
  o: {
    unsubscribe: string | null;
    replyTo: string | null;
    postalAddress: string | null;
    /** Sent on a later day than the release (a paused account, retries): says when it came out. */
    cameOut?: string | null;
  },
): Mail {
  const origin = siteOriginOf(b, site);
  const link = `${origin}${bookPath(b)}`;
  const subject = releaseSubject(b.title);
  const out = o.cameOut ? `came out on ${formatDate(o.cameOut, "long")}` : "is out today";
  const why = `You get this mail because you asked for a release alert at ${new URL(origin).host}.`;
  const parts = mailParts({
    title: subject,
    preheader: `${b.title} by ${b.author} ${out}.`,
    body: join(
      heading(subject),
      paragraph("Hello,"),
      paragraph(`${b.title} by ${b.author} ${out}.`),
      button(link, "See the book"),
      // True with the unsubscribe link below: this book mails once; that link is for later books.
      paragraph(`You asked ${b.siteName} to tell you when it came out. You will get no other mail about this book.`),
    ),
    footer: join(
      o.unsubscribe
        ? footnote([`${why} `, { href: o.unsubscribe, label: "Unsubscribe from release alerts" }])
        : footnote([`${why} Readers get a link to unsubscribe here.`]),
      postalAddress(o.postalAddress),
    ),
  });
  return {
    to,
    subject,
    ...parts,
    fromName: b.siteName,
    automatic: true,
    ...(o.replyTo ? { replyTo: { name: b.siteName, address: o.replyTo } } : {}),
    ...(o.unsubscribe ? { listUnsubscribeUrl: o.unsubscribe } : {}),
  };
}

export type SiteAddress = { protocol: string; sitesDomain: string };

/** The release mail's subject, also kept on its outbox row (logs, the back office). */
const releaseSubject = (title: string) => `${title} is out now`;

/**
 * Queues the release mails of every book out by today whose confirmed readers were not told yet
 * (ADR 073): one launch per transaction, its book row locked (other processes skip it), one
 * outbox row per reader (INSERT … SELECT, ON CONFLICT DO NOTHING on the alert) and the alerts
 * marked told in the same transaction, so a reader is neither mailed twice nor forgotten. The
 * outbox sends them in the paced lane, each made as it goes. A paused account's launches wait.
 * Returns how many mails were queued.
 */
export async function sendLaunchDayMails(
  deps: { db: Db; mailer: ReleaseAlertQueue; logger: Logger },
  now = new Date(),
): Promise<number> {
  let queued = 0;
  for (;;) {
    const added = await deps.db.transaction(async (tx) => {
      const launch = await q.lockOneDueLaunch(tx, dayOf(now));
      if (!launch) return null;
      const n = await deps.mailer.queueReleaseAlerts(tx, {
        bookId: launch.bookId,
        userId: launch.userId,
        subject: releaseSubject(launch.title),
      });
      await q.markNotified(tx, launch.userId, launch.bookId);
      return n;
    });
    if (added === null) return queued;
    queued += added;
  }
}

/** The stable Message-ID of one reader's release mail: the same on every attempt and in every process. */
export function releaseMessageId(alertId: string, mailFrom: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(mailFrom)?.[1] ?? "bookplate.local";
  return `<launch-${alertId}@${domain}>`;
}

/**
 * The outbox's maker of release mails (ADR 073), read when the mail goes: null when the reader
 * unsubscribed or bounced meanwhile (the row is skipped). The reader's one-click unsubscribe
 * link as before (ADR 065).
 */
export function makeReleaseAlertCopy(
  db: Db,
  site: SiteAddress,
  mailFrom: string,
  unsubscribeKey: string,
  clock: () => Date = () => new Date(),
): ReleaseAlertCopy {
  return async ({ alertId }) => {
    const a = await q.selectAlertCopy(db, alertId);
    if (a?.status !== "confirmed") return null;
    const unsubscribe = unsubscribeUrl(unsubscribeKey, siteOriginOf(a, site), {
      list: "alerts",
      userId: a.userId,
      subscriberId: a.alertId,
    });
    const late = a.releaseDate !== null && a.releaseDate < dayOf(clock());
    const mail = releaseMail(a.email, a, site, {
      unsubscribe,
      replyTo: await contactDeliveryAddress(db, a.userId),
      postalAddress: await postalAddressOf(db, a.userId),
      cameOut: late ? a.releaseDate : null,
    });
    return { ...mail, messageId: releaseMessageId(alertId, mailFrom) };
  };
}

/** The author's view: readers waiting (unconfirmed, confirmed) and already told. */
export async function launchSummary(db: Db, userId: string, bookId: string, now = new Date()) {
  const book = await q.selectReleaseBook(db, userId, bookId);
  if (!book) throw bookNotFound();
  const counts = await q.countAlerts(db, userId, bookId);
  const days = daysUntil(book.releaseDate, now);
  return { releaseDate: book.releaseDate, preorder: days !== null && days > 0, ...counts };
}

/** The release mail, to the author's own address, marked as a test. */
export async function sendTestLaunchMail(
  deps: { db: Db; mailer: MailSender; site: SiteAddress },
  userId: string,
  bookId: string,
): Promise<string> {
  const book = await q.selectReleaseBook(deps.db, userId, bookId);
  if (!book) throw bookNotFound();
  const replyTo = await contactDeliveryAddress(deps.db, userId);
  const postal = await postalAddressOf(deps.db, userId);
  const mail = releaseMail(book.email, book, deps.site, { unsubscribe: null, replyTo, postalAddress: postal });
  try {
    await deps.mailer.send({ ...mail, subject: `[Test] ${mail.subject}` });
  } catch {
    throw new DomainError("mail_failed", "The test mail could not be sent. Please try again.");
  }
  return book.email;
}
