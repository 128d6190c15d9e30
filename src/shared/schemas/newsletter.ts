// An author's newsletters (issue 32, ADR 066): one schema for the editor and the API, so a blank
// subject or body gives the product's message ('Please fill in all fields') on both sides.
import { z } from "zod";
import { NEWSLETTER_STATUSES } from "../enums.ts";
import { namedObject, stamps } from "./fragments.ts";
import { POST_LIMITS, POST_MESSAGES, richContent } from "./post.ts";

export const NEWSLETTER_LIMITS = { subject: 200, content: POST_LIMITS.content } as const;

export const NEWSLETTER_MESSAGES = {
  required: POST_MESSAGES.required,
  notFound: "Newsletter not found",
  pastTime: "Choose a time in the future to send it, or send it now.",
  notEditable: "This newsletter has gone out: it can no longer be changed.",
  notWhileSending: "This newsletter is going out now: wait until it has been sent.",
  alreadySent: "This newsletter has already gone out.",
  notScheduled: "This newsletter is not scheduled.",
  noSubscribers: "You have no confirmed subscribers yet: nobody would receive it.",
  testFailed: "The test mail could not be sent. Please try again.",
  sendingPaused: "Sending is paused for your account. Please contact support.",
} as const;

/** The day's cap, told with what is left (the API's message for `sending_limit_reached`). */
export function capMessage(cap: number, usedToday: number, recipients: number): string {
  const left = Math.max(0, cap - usedToday);
  const n = (x: number) => x.toLocaleString("en-GB");
  return (
    `Your account can send ${n(cap)} newsletter mails in 24 hours; ${n(usedToday)} went in the last 24 hours, ` +
    `so ${n(left)} are left and this newsletter would need ${n(recipients)}. Nothing was sent: try again later.`
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const subject = z
  .string({ error: "Subject must be text" })
  .trim()
  .min(1, { error: NEWSLETTER_MESSAGES.required })
  .max(NEWSLETTER_LIMITS.subject, { error: `Subject must be at most ${NEWSLETTER_LIMITS.subject} characters` })
  // A line break in a subject would be a header of its own.
  .refine((v) => !CONTROL.test(v), { error: "Subject contains characters that are not allowed" });

/** Rich text (HTML) from the post editor, with a post's rules; the server cleans it like a post's. */
const content = richContent;

const publishAsPost = z.boolean({ error: "publishAsPost must be true or false" });
/** Links in readers' copies go through a signed redirect that counts clicks (ADR 069). */
const countClicks = z.boolean({ error: "countClicks must be true or false" });

export const newsletterCreateSchema = z.strictObject({
  subject,
  content,
  publishAsPost: publishAsPost.default(false),
  countClicks: countClicks.default(false),
});

/** An edit may send only what changed. */
export const newsletterUpdateSchema = z
  .strictObject({ subject, content, publishAsPost, countClicks })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: "Nothing to update" });

/** Send now (no `at`), or at a time to come (ISO 8601 with its offset). */
export const newsletterSendSchema = z.strictObject({
  at: z.iso
    .datetime({ offset: true, error: "The time to send must be a date and time, e.g. 2030-01-31T09:00:00Z" })
    .optional(),
});

/**
 * The editor's preview: the words as they stand, blank allowed (an empty editor still shows the
 * frame), within the newsletter's limits.
 */
export const newsletterPreviewSchema = z.strictObject({
  subject: z
    .string({ error: "Subject must be text" })
    .max(NEWSLETTER_LIMITS.subject, { error: `Subject must be at most ${NEWSLETTER_LIMITS.subject} characters` }),
  content: z.string({ error: "Content must be text" }).max(NEWSLETTER_LIMITS.content, {
    error: `Content must be at most ${NEWSLETTER_LIMITS.content.toLocaleString("en-GB")} characters`,
  }),
});

export type NewsletterCreate = z.output<typeof newsletterCreateSchema>;
export type NewsletterPreview = z.output<typeof newsletterPreviewSchema>;
export type NewsletterCreateInput = z.input<typeof newsletterCreateSchema>;
export type NewsletterUpdate = z.output<typeof newsletterUpdateSchema>;
export type NewsletterSend = z.output<typeof newsletterSendSchema>;

export const newsletterSchema = namedObject("Newsletter", {
  id: z.string(),
  subject: z.string(),
  content: z.string(),
  status: z.enum(NEWSLETTER_STATUSES),
  /** When it goes (scheduled) or went (sending, sent); null for a draft. */
  scheduledAt: z.string().nullable(),
  /** When its last copy was settled. */
  sentAt: z.string().nullable(),
  /** Confirmed subscribers it went to; null until it goes. */
  recipients: z.number().int().nullable(),
  /** Why a scheduled send went back to draft (the day's cap), else null. */
  error: z.string().nullable(),
  publishAsPost: z.boolean(),
  /** The blog post made when it went out (publishAsPost). */
  postId: z.string().nullable(),
  /** Links in readers' copies count clicks (ADR 069). */
  countClicks: z.boolean(),
  ...stamps,
});
export type Newsletter = z.infer<typeof newsletterSchema>;

export const newsletterFiguresSchema = namedObject("NewsletterFigures", {
  /** Copies queued: one per confirmed subscriber when it went out. */
  sent: z.number().int(),
  /** Taken by the mail server (it answered 250). */
  accepted: z.number().int(),
  /** Refused for good (5xx): the reader is marked bounced and gets no more. */
  bounced: z.number().int(),
  /** Readers it was sent to who are unsubscribed now. */
  unsubscribed: z.number().int(),
  /** Still to go (waiting, or being retried after a temporary refusal). */
  waiting: z.number().int(),
  /** Not sent: the reader unsubscribed or bounced before their copy went. */
  skipped: z.number().int(),
  /** Each link's clicks and distinct readers, in the newsletter's order; empty unless it counts clicks. */
  links: z.array(z.object({ url: z.string(), clicks: z.number().int(), readers: z.number().int() })),
});
export type NewsletterFigures = z.infer<typeof newsletterFiguresSchema>;
