// The contact address is proven by a link mailed to it before any reader's message is sent there
// (ADR 014): otherwise a contact form is a relay that mails anyone's text to any address.
import { createHash, randomBytes } from "node:crypto";
import type { Db, Tx } from "../../../db/client.ts";
import type { ContactEmailState } from "../../../shared/schemas/contact-settings.ts";
import type { MailSender } from "../mail/mail.service.ts";
import * as q from "./contact-email.queries.ts";

const LINK_LIFETIME_MS = 24 * 60 * 60_000;

/** What sending a verification link needs from the running server. */
export type VerificationMail = {
  mailer: MailSender;
  appOrigin: string;
  /** Counts one link to this (lower-cased) address; false once the address had enough for now. */
  allow(address: string): Promise<boolean>;
};

/** A link to mail: the token travels only in the mail, the row keeps its hash. */
export type PendingLink = { email: string; token: string };

const same = (a: string | null | undefined, b: string | null | undefined) =>
  Boolean(a && b && a.toLowerCase() === b.toLowerCase());

const hashToken = (token: string) => createHash("sha256").update(token).digest("base64url");

/** The account's own address needs no link: signing up proved it. */
function isAccountAddress(a: q.ContactAddresses, email: string | null): boolean {
  return a.accountEmailVerified && same(email, a.accountEmail);
}

export function contactEmailState(a: q.ContactAddresses): ContactEmailState {
  if (!a.contactEmail || isAccountAddress(a, a.contactEmail)) return "account";
  return same(a.contactEmail, a.verifiedContactEmail) ? "verified" : "pending";
}

/**
 * Where the contact form's messages for this author go: the contact address once verified, else the
 * account's verified email; null when neither is proven (the message is only stored).
 */
export async function contactDeliveryAddress(db: Db | Tx, userId: string): Promise<string | null> {
  const a = await q.selectContactAddresses(db, userId);
  if (!a) return null;
  // "account" with an address set means the address is the account's own.
  if (a.contactEmail && contactEmailState(a) !== "pending") return a.contactEmail;
  return a.accountEmailVerified ? a.accountEmail : null;
}

export async function readContactAddresses(db: Db | Tx, userId: string): Promise<q.ContactAddresses | null> {
  return q.selectContactAddresses(db, userId);
}

async function newLink(tx: Tx, userId: string, email: string, verified: string | null): Promise<PendingLink> {
  const token = randomBytes(32).toString("base64url");
  await q.writeVerification(tx, userId, {
    verifiedContactEmail: verified,
    pending: { tokenHash: hashToken(token), email, expiresAt: new Date(Date.now() + LINK_LIFETIME_MS) },
  });
  return { email, token };
}

/**
 * After the contact settings were written (same transaction): a changed address is unverified
 * again and gets a new link, unless it is the account's own address. Returns the link to mail.
 */
export async function onContactEmailSaved(
  tx: Tx,
  userId: string,
  before: q.ContactAddresses | null,
  after: q.ContactAddresses,
): Promise<PendingLink | null> {
  if (same(before?.contactEmail, after.contactEmail)) return null;
  if (!after.contactEmail || isAccountAddress(after, after.contactEmail)) {
    await q.writeVerification(tx, userId, { verifiedContactEmail: null, pending: null });
    return null;
  }
  return newLink(tx, userId, after.contactEmail, null);
}

/** A fresh link for the pending address (the old one stops working). */
export async function renewLink(tx: Tx, userId: string, a: q.ContactAddresses): Promise<PendingLink | null> {
  if (!a.contactEmail || contactEmailState(a) !== "pending") return null;
  return newLink(tx, userId, a.contactEmail, a.verifiedContactEmail);
}

/** Counts one link to the address; false once it had enough for now (then none is made or sent). */
export const mayMailLink = (email: string, m: VerificationMail) => m.allow(email.toLowerCase());

export async function mailLink(link: PendingLink, m: VerificationMail): Promise<void> {
  const url = `${new URL(m.appOrigin).origin}/contact-email/verify?token=${encodeURIComponent(link.token)}`;
  await m.mailer.send({
    to: link.email,
    subject: "Confirm the contact address of your Bookplate website",
    text:
      "Hello,\n\nA Bookplate author asked for the messages from their website's contact form to be\n" +
      `sent to ${link.email}. To agree, open this link and press "Confirm this address":\n\n${url}\n\n` +
      "The link works once, for 24 hours. If you did not expect this mail, ignore it: nothing will\n" +
      "be sent to this address.\n",
    automatic: true,
  });
}

/** Follows a link: the verified address, or null when the token is unknown, used or expired. */
export async function verifyContactEmail(db: Db, token: string, now = new Date()): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  return q.consumeToken(db, hashToken(token), now);
}
