// An account's newsletter sending (issue 32, ADR 070): its figures, and staff's pause.
import { z } from "zod";
import { plainText } from "./text.ts";

export const NEWSLETTER_SENDING_MESSAGES = {
  alreadyPaused: "Sending is already paused for this account.",
  notPaused: "Sending is not paused for this account.",
  notYourself: "You cannot pause or resume your own sending.",
  superAdminOnly: "Only a super admin can pause a super admin's sending.",
} as const;

export const newsletterSendingSchema = z.object({
  /** The window of the figures below, in days (queued in it). */
  days: z.number().int(),
  /** Copies the mail server took (sent or, without SMTP, logged). */
  sent: z.number().int(),
  /** Copies refused for good (5xx): their reader is now `bounced`. */
  bounced: z.number().int(),
  /** bounced / (sent + bounced), one decimal; null when nothing went. */
  bounceRatePercent: z.number().nullable(),
  /** Copies queued and not yet gone (held while paused). */
  waiting: z.number().int(),
  lastSentAt: z.string().nullable(),
  /** Staff's pause (null: the account may send). */
  paused: z.object({ at: z.string(), reason: z.string().nullable() }).nullable(),
});
export type NewsletterSending = z.infer<typeof newsletterSendingSchema>;

export const newsletterPauseSchema = z.strictObject({
  paused: z.boolean({ error: "paused must be true or false" }),
  reason: plainText(1, 500, "Reason"),
});
export type NewsletterPause = z.infer<typeof newsletterPauseSchema>;
