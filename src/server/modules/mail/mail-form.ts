// What a mail is, and the form it is queued in (ADR 065): the one layout's HTML part when the
// caller gives text only, the headers it goes with, and names made safe for a header.
import type { Tx } from "../../../db/client.ts";
import type { NewOutboxRow } from "./mail.queries.ts";
import { mailDocument, textToMailHtml } from "./mail-layout.ts";

export type Mail = {
  to: string;
  subject: string;
  /** The plain-text part. Without `html`, the HTML part is made from it by the one layout (ADR 065). */
  text: string;
  /** A whole HTML document from `mailParts` (mail-layout.ts), with `text` made from the same HTML. */
  html?: string;
  /** Where "Reply" goes (a reader who wrote through a site's form); the sender stays ours. */
  replyTo?: { name: string; address: string };
  /**
   * The From display name, at MAIL_FROM's address: the author's site name on mail sent on their
   * behalf to readers (then `replyTo` is the author). Unset: MAIL_FROM as configured.
   */
  fromName?: string;
  /** Sent by a program, not written by a person (alerts, links to confirm, notices): `Auto-Submitted`. */
  automatic?: boolean;
  /** Mail to a list's reader: their one-click unsubscribe link (RFC 8058), `unsubscribeUrl` in unsubscribe.service.ts. */
  listUnsubscribeUrl?: string;
  /** The Message-ID, when it must be the same on every attempt (a newsletter's copy, a release alert's; ADR 066, 073). */
  messageId?: string;
};

/**
 * A newsletter's copy as it goes out, made from its row when it is sent (the row holds only the
 * newsletter and the reader): null when the reader is no longer confirmed (skipped).
 */
export type NewsletterCopy = (row: { newsletterId: string; subscriberId: string }) => Promise<Mail | null>;

/** What the newsletter module hands the outbox: its copies, queued in the caller's transaction. */
export type NewsletterQueue = {
  /** One row per confirmed subscriber of the author; returns how many were added (ADR 066). */
  queueNewsletter(tx: Tx, n: { newsletterId: string; userId: string; subject: string }): Promise<number>;
};

/**
 * A release alert's mail as it goes out, made from its row when it is sent (ADR 073): null when
 * the reader is no longer confirmed (unsubscribed, bounced) or the book is gone (skipped).
 */
export type ReleaseAlertCopy = (row: { alertId: string }) => Promise<Mail | null>;

/** What the launches hand the outbox: one book's release mails, queued in the caller's transaction. */
export type ReleaseAlertQueue = {
  /** One row per confirmed, not yet told alert of the book; returns how many were added (ADR 073). */
  queueReleaseAlerts(tx: Tx, a: { bookId: string; userId: string; subject: string }): Promise<number>;
};

/** A header value we write ourselves: one line, no control characters, bounded. */
const oneLine = (s: string, max: number) =>
  s
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max);

/** The headers a mail is queued with (ADR 065): kept in the outbox, sent as they are. */
export function mailHeaders(mail: Pick<Mail, "automatic" | "listUnsubscribeUrl">): Record<string, string> {
  const headers: Record<string, string> = {};
  if (mail.automatic) headers["Auto-Submitted"] = "auto-generated";
  if (mail.listUnsubscribeUrl) {
    if (!/^https?:\/\/[\x21-\x7e]+$/.test(mail.listUnsubscribeUrl) || /[<>,]/.test(mail.listUnsubscribeUrl)) {
      throw new Error("An unsubscribe link must be a plain http(s) address");
    }
    headers["List-Unsubscribe"] = `<${mail.listUnsubscribeUrl}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  return headers;
}

/** The display name as it may go into a From header: one line, at most 100 characters. */
export const fromNameOf = (name: string) => oneLine(name, 100);

/** The address part of MAIL_FROM ("Bookplate <no-reply@x>" or a bare address). */
export function fromAddressOf(mailFrom: string): string {
  return (/<([^<>\s]+@[^<>\s]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom).trim();
}

export type DkimOptions = { domainName: string; keySelector: string; privateKey: string };

/** The outbox row a mail is queued as. */
export function outboxRow({
  replyTo,
  fromName,
  automatic,
  listUnsubscribeUrl,
  messageId: _id,
  ...mail
}: Mail): NewOutboxRow {
  const headers = mailHeaders({ automatic, listUnsubscribeUrl });
  const name = fromName === undefined ? "" : fromNameOf(fromName);
  return {
    ...mail,
    // Every mail has an HTML part in the one layout; its text stays the caller's words.
    html: mail.html ?? mailDocument({ title: mail.subject, body: textToMailHtml(mail.text) }),
    replyToName: replyTo ? fromNameOf(replyTo.name) : null,
    replyToAddress: replyTo?.address ?? null,
    fromName: name === "" ? null : name,
    headers: Object.keys(headers).length > 0 ? headers : null,
  };
}
