// Newsletter settings: an email provider's sign-up embed, or (left empty) the site's own
// sign-up form with confirmation by mail. The embed runs only inside a sandboxed frame.
import { z } from "zod";
import { SUBSCRIBER_STATUSES } from "../enums.ts";
import { namedObject } from "./fragments.ts";

export const EMBED_CODE_MAX = 20_000;
export const EMBED_WARNING =
  "This doesn't look like a valid embed code. Make sure to include the complete HTML form or script.";

/** The spec's test: an embed has a form, an iframe or a script tag. */
export function looksLikeEmbedCode(code: string): boolean {
  return /<(form|iframe|script)\b/i.test(code);
}

export const newsletterSettingsSchema = z.strictObject({
  embedCode: z
    .string({ error: "Embed code must be text" })
    .trim()
    .max(EMBED_CODE_MAX, { error: `Embed code must be at most ${EMBED_CODE_MAX.toLocaleString("en-GB")} characters` })
    .refine((v) => v === "" || looksLikeEmbedCode(v), { error: EMBED_WARNING })
    .nullable()
    .transform((v) => (v ? v : null)),
});

export type NewsletterSettings = z.output<typeof newsletterSettingsSchema>;

export const newsletterSubscriberSchema = namedObject("NewsletterSubscriber", {
  id: z.string(),
  email: z.string(),
  status: z.enum(SUBSCRIBER_STATUSES),
  createdAt: z.string(),
  confirmedAt: z.string().nullable(),
  /** The site path the reader signed up on; null when not known (older rows, imports). */
  signupPage: z.string().nullable(),
  /** When the author imported the address from another provider; null for sign-ups on the site. */
  importedAt: z.string().nullable(),
});
export type NewsletterSubscriber = z.infer<typeof newsletterSubscriberSchema>;

export const NEWSLETTER_MESSAGES = {
  saved: "Newsletter settings saved successfully!",
  failed: "Failed to save newsletter settings",
} as const;
