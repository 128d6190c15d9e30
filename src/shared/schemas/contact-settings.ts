// Contact Settings: where messages from the site's contact form go, whether the form and its
// anti-spam are on, and the author's social links (one per platform).
import { z } from "zod";
import { SOCIAL_PLATFORMS } from "../enums.ts";
import { emailSchema } from "./text.ts";

export const PLATFORM_LABELS: Record<(typeof SOCIAL_PLATFORMS)[number], string> = {
  facebook: "Facebook",
  instagram: "Instagram",
  youtube: "YouTube",
  twitter: "Twitter",
  tiktok: "TikTok",
  bluesky: "Bluesky",
  website: "Website",
  email: "Email",
};

const isHttpUrl = (v: string) => {
  try {
    const u = new URL(v);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.includes(".");
  } catch {
    return false;
  }
};

const socialLinkSchema = z
  .strictObject({
    platform: z.enum(SOCIAL_PLATFORMS, { error: `Platform must be one of ${SOCIAL_PLATFORMS.join(", ")}` }),
    url: z.string({ error: "Link must be text" }).trim().max(500, { error: "Link must be at most 500 characters" }),
    enabled: z.boolean({ error: "Link must be on or off" }),
  })
  .superRefine((l, ctx) => {
    if (!l.enabled && l.url === "") return;
    const label = PLATFORM_LABELS[l.platform];
    const ok =
      l.platform === "email" ? emailSchema.safeParse(l.url.replace(/^mailto:/i, "")).success : isHttpUrl(l.url);
    if (!ok) {
      ctx.addIssue({
        code: "custom",
        path: ["url"],
        message:
          l.platform === "email"
            ? "Please enter a valid email address for Email"
            : `Please enter a full link for ${label}, starting with https://`,
      });
    }
  });

export const contactSettingsSchema = z.strictObject({
  contactEmail: z
    .union([z.literal(""), emailSchema], { error: "Please enter a valid email address" })
    .nullable()
    .transform((v) => (v ? v : null)),
  enableContactForm: z.boolean({ error: "Contact form must be on or off" }),
  antispamEnabled: z.boolean({ error: "Anti-spam must be on or off" }),
  socialLinks: z
    .array(socialLinkSchema, { error: "Social links must be a list" })
    .max(SOCIAL_PLATFORMS.length, { error: `At most ${SOCIAL_PLATFORMS.length} social links` })
    .refine((links) => new Set(links.map((l) => l.platform)).size === links.length, {
      message: "Each platform can be listed once",
    }),
});

export type ContactSettings = z.output<typeof contactSettingsSchema>;

/**
 * Where the contact form's messages go (ADR 014):
 * - `account`: to the account's own email (no contact address, or it is the account's email);
 * - `pending`: a link was mailed to the contact address; until it is opened, to the account's email;
 * - `verified`: to the contact address, whose owner opened the link.
 */
export const CONTACT_EMAIL_STATES = ["account", "pending", "verified"] as const;
export type ContactEmailState = (typeof CONTACT_EMAIL_STATES)[number];

/** What the Contact Settings screen reads: the settings, and where messages go today. */
export const contactSettingsViewSchema = contactSettingsSchema
  .extend({
    contactEmailState: z.enum(CONTACT_EMAIL_STATES),
    /** The account's email, where messages go while the contact address is not verified. */
    accountEmail: z.string(),
  })
  .meta({ id: "ContactSettings" });
export type ContactSettingsView = z.output<typeof contactSettingsViewSchema>;

export const CONTACT_MESSAGES = {
  saved: "Contact settings saved successfully!",
  failed: "Failed to save contact settings",
  resent: "Verification link sent",
  resendFailed: "Could not send the verification link",
  nothingPending: "There is no contact address waiting for verification.",
  tooManyLinks: "We have already sent several links to this address. Please try again in an hour.",
  linkInvalid: "This verification link is not valid or has expired. Open Contact Settings to send a new one.",
} as const;
