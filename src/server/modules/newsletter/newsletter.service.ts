// A site's newsletter sign-up with double opt-in: the public form asks, a mailed link confirms.
// Rate limits and the mail text live here; the renderer only parses the form and shows the answer.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../../../db/client.ts";
import { signupPagePath } from "../../../shared/schemas/subscribers.ts";
import type { FormOutcome } from "../../lib/domain-error.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Limiter } from "../../lib/rate-limiter.ts";
import { sendConfirmationMail } from "../mail/confirmation-mail.service.ts";
import type { MailSender } from "../mail/mail.service.ts";
import * as q from "./newsletter.queries.ts";

const emailSchema = z.object({ email: z.email("Please enter a valid email address").max(320) });

const newToken = () => randomBytes(24).toString("base64url");

/** A confirmation token as we make them: anything else is not looked up. */
export const isConfirmToken = (token: string) => /^[A-Za-z0-9_-]{16,64}$/.test(token);

/**
 * Double opt-in: a new (or previously unsubscribed) address is stored as pending and gets a
 * confirmation token; a pending one keeps its token so the mail can be sent again. Returns the
 * token to mail, or null when the address is already confirmed (nothing to send). The caller
 * answers the same in every case, so the form reveals nothing about who subscribed.
 */
async function subscribeToNewsletter(
  db: Db,
  userId: string,
  rawEmail: string,
  signupPage: string | null,
): Promise<{ confirmToken: string } | null> {
  const email = rawEmail.trim().toLowerCase();
  const existing = await q.selectSubscriber(db, userId, email);
  if (existing?.status === "confirmed") return null;
  if (existing?.status === "pending") return { confirmToken: existing.confirmToken };
  const token = newToken();
  if (existing?.status === "unsubscribed") {
    await q.resetSubscriberToPending(db, userId, email, token, signupPage);
    return { confirmToken: token };
  }
  const inserted = await q.insertPendingSubscriber(db, userId, email, token, signupPage);
  if (inserted) return { confirmToken: inserted.confirmToken };
  const raced = await q.selectSubscriber(db, userId, email);
  return raced?.status === "pending" ? { confirmToken: raced.confirmToken } : null;
}

/** The reader followed the mailed link of this site's newsletter. */
export async function confirmNewsletterSubscriber(db: Db, userId: string, token: string): Promise<boolean> {
  if (!isConfirmToken(token)) return false;
  return q.confirmSubscriberByToken(db, userId, token);
}

export type NewsletterDeps = {
  db: Db;
  mailer: MailSender;
  logger: Logger;
  limits: { signUp: Limiter; confirmMail: Limiter };
};

export type SignUpRequest = {
  userId: string;
  clientAddress: string;
  /** The form's fields: `email`, and `page`, the site path the form was on (kept as a path only). */
  fields: Record<string, string>;
  /** The site's own address of the confirmation page for a token. */
  confirmUrl: (token: string) => string;
  requestId?: string;
};

export async function signUpForNewsletter(deps: NewsletterDeps, r: SignUpRequest): Promise<FormOutcome> {
  const parsed = emailSchema.safeParse(r.fields);
  if (!parsed.success) return { ok: false, code: "validation_failed", error: parsed.error.issues[0]?.message };
  if (!(await deps.limits.signUp.take(`${r.userId}|${r.clientAddress}`))) {
    return { ok: false, code: "rate_limited", error: "Too many sign-ups. Please try again later." };
  }
  const email = parsed.data.email.toLowerCase();
  const pending = await subscribeToNewsletter(deps.db, r.userId, email, signupPagePath(r.fields.page));
  // Already confirmed, or mailed often enough: the same answer, no mail.
  if (pending && (await deps.limits.confirmMail.take(`${r.userId}|${email}`))) {
    const link = r.confirmUrl(pending.confirmToken);
    await sendConfirmationMail(deps, {
      to: email,
      link,
      subject: (site) => `Please confirm your newsletter subscription at ${site}`,
      text: (site) =>
        `Hello,\n\nSomeone (we hope you) asked to receive the newsletter of the website ${site}.\n` +
        `To confirm, open this link and press "Confirm subscription":\n\n${link}\n\n` +
        "If it was not you, ignore this mail: you will not be subscribed.\n",
      failed: "newsletter confirmation mail failed",
      requestId: r.requestId,
    });
  }
  return { ok: true };
}
