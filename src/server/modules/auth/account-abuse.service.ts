// Limits that protect one account, whoever attacks it from wherever (ADR 015): password guessing
// slows down exponentially per address, and the mails our forms send to an address are capped.
// Every answer is the same for an address with an account and one without.
import type { Db } from "../../../db/client.ts";
import type { MailSender } from "../mail/mail.service.ts";
import {
  bumpMailQuota,
  deleteSignInFailures,
  type FailureRow,
  selectAccountByEmail,
  updateSignInFailures,
} from "./account-abuse.queries.ts";

export type AbuseDeps = { db: Db; mailer: MailSender; appOrigin: string };

/** Wrong passwords allowed before the first wait. */
export const FREE_SIGN_IN_FAILURES = 5;
const FIRST_LOCK_MS = 60_000;
const MAX_LOCK_MS = 60 * 60_000;
/** A person who mistypes now and then should not inherit last month's count. */
const FAILURES_FORGOTTEN_AFTER_MS = 24 * 60 * 60_000;

/** 1 minute after the 5th failure, then 2, 4, 8 … up to an hour. */
export function lockMs(failures: number): number {
  if (failures < FREE_SIGN_IN_FAILURES) return 0;
  return Math.min(FIRST_LOCK_MS * 2 ** (failures - FREE_SIGN_IN_FAILURES), MAX_LOCK_MS);
}

export function lockedMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const wait = minutes === 1 ? "1 minute" : `${minutes} minutes`;
  return `Too many failed sign-in attempts. Try again in ${wait} or reset your password.`;
}

export type SignInClaim =
  | { allowed: true; email: string; lockStarted: boolean }
  | { allowed: false; retryAfterSeconds: number };

/**
 * Counts a sign-in attempt before the password is checked, not after: otherwise a burst of
 * parallel guesses would all pass the check before the first failure was written. A success
 * clears the count again (settleSignIn).
 */
export function claimSignInAttempt(db: Db, email: string, now = new Date()): Promise<SignInClaim> {
  return updateSignInFailures<SignInClaim>(db, email, (row: FailureRow) => {
    if (row.lockedUntil && row.lockedUntil > now) {
      const retryAfterSeconds = Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 1000);
      return { next: null, result: { allowed: false, retryAfterSeconds } };
    }
    const stale = now.getTime() - row.lastAttemptAt.getTime() > FAILURES_FORGOTTEN_AFTER_MS;
    const failures = (stale ? 0 : row.failures) + 1;
    const wait = lockMs(failures);
    return {
      next: { failures, lockedUntil: wait ? new Date(now.getTime() + wait) : null, lastAttemptAt: now },
      result: { allowed: true, email, lockStarted: failures === FREE_SIGN_IN_FAILURES },
    };
  });
}

/**
 * After Better Auth answered: a right password (signed in, second factor asked, or "verify your
 * email first") ends the count; the failure that started a lock tells the owner, once.
 */
export async function settleSignIn(
  deps: AbuseDeps,
  claim: Extract<SignInClaim, { allowed: true }>,
  outcome: "right-password" | "wrong-password" | "other",
): Promise<void> {
  if (outcome === "right-password") {
    await deleteSignInFailures(deps.db, claim.email);
    return;
  }
  if (outcome !== "wrong-password" || !claim.lockStarted) return;
  const account = await selectAccountByEmail(deps.db, claim.email);
  if (!account) return;
  await deps.mailer.send({
    to: account.email,
    subject: "Sign-ins to your Bookplate account are paused",
    text: `Hello,\n\nSomeone entered a wrong password for your Bookplate account ${FREE_SIGN_IN_FAILURES} times, so we have paused sign-ins with a password for a while. Each further wrong password makes the pause longer, up to an hour.\n\nIf it was you, wait a minute and try again, or choose a new password here (that ends the pause at once):\n\n${deps.appOrigin}/forgot-password\n\nIf it was not you, your account is safe: the pause is what keeps the guesser out. Choosing a new, long password makes it safer still.`,
    automatic: true,
  });
}

/** Whether the address has an account (Better Auth stores addresses in lower case). */
export async function hasAccount(db: Db, email: string): Promise<boolean> {
  return (await selectAccountByEmail(db, email.toLowerCase())) !== null;
}

export function clearSignInFailures(db: Db, email: string): Promise<void> {
  return deleteSignInFailures(db, email.toLowerCase());
}

const HOUR_MS = 60 * 60_000;
/** How many mails of each kind one address may receive per window. */
export const MAIL_CAPS = {
  "password-reset": { max: 3, windowMs: HOUR_MS },
  "existing-sign-up": { max: 2, windowMs: 24 * HOUR_MS },
} as const;

/** Counts the mail and says whether it may go; over the cap it is dropped without a word. */
export async function mayMail(db: Db, kind: keyof typeof MAIL_CAPS, email: string, now = new Date()) {
  const cap = MAIL_CAPS[kind];
  return (await bumpMailQuota(db, kind, email.toLowerCase(), now, cap.windowMs)) <= cap.max;
}

/** Sign-up with an address that already has an account: the owner hears of it, nobody else. */
export async function noticeExistingAccountSignUp(deps: AbuseDeps, account: { email: string }) {
  if (!(await mayMail(deps.db, "existing-sign-up", account.email))) return;
  await deps.mailer.send({
    to: account.email,
    subject: "Someone tried to create a Bookplate account with your email",
    text: `Hello,\n\nSomeone tried to create a new Bookplate account with this email address, which already has an account. Nothing about your account has changed.\n\nIf it was you, sign in here:\n\n${deps.appOrigin}/login\n\nForgot your password? Choose a new one here:\n\n${deps.appOrigin}/forgot-password\n\nIf it was not you, you can ignore this mail.`,
    automatic: true,
  });
}
