// Site Settings: the site's name, which pages it shows, and its look. One schema for the form
// and the API, so the screen and the server give the same message for the same mistake.
import { z } from "zod";
import { FONT_FAMILIES, LOGO_ICONS } from "../enums.ts";
import { showWhenEmptySchema } from "./site-status.ts";
import { colour, partialUpdate, plainText } from "./text.ts";

const optionalText = (max: number, label: string) =>
  plainText(0, max, label)
    .nullable()
    .transform((v) => (v ? v : null));

export const HEADER_SIZE = { min: 1, max: 3, step: 0.1 } as const;

export const siteSettingsSchema = z.strictObject({
  websiteName: plainText(1, 100, "Website name"),
  websiteTitle: optionalText(120, "Page title"),
  tagline: optionalText(200, "Tagline"),
  booksEnabled: z.boolean({ error: "Books page must be on or off" }),
  aboutEnabled: z.boolean({ error: "About page must be on or off" }),
  newsEnabled: z.boolean({ error: "Blog page must be on or off" }),
  newsletterEnabled: z.boolean({ error: "Newsletter page must be on or off" }),
  contactEnabled: z.boolean({ error: "Contact page must be on or off" }),
  /** Sections shown in the menu even while they have nothing in them (ADR 052). */
  showWhenEmpty: showWhenEmptySchema,
  fontFamily: z.enum(FONT_FAMILIES, { error: `Font must be one of ${FONT_FAMILIES.join(", ")}` }),
  logoIcon: z.enum(LOGO_ICONS, { error: `Header icon must be one of ${LOGO_ICONS.join(", ")}` }),
  headerSize: z
    .number({ error: "Header size must be a number" })
    .min(HEADER_SIZE.min, { error: `Header size must be at least ${HEADER_SIZE.min}` })
    .max(HEADER_SIZE.max, { error: `Header size must be at most ${HEADER_SIZE.max}` })
    .transform((v) => Math.round(v * 10) / 10),
  accentColor: colour("Accent colour"),
  iconColor: colour("Icon colour"),
  buttonColor: colour("Button colour"),
  buttonTextColor: colour("Button text colour"),
  buttonHoverColor: colour("Button hover colour"),
  buttonHoverTextColor: colour("Button hover text colour"),
  headerBackgroundColor: colour("Header background"),
  footerBackgroundColor: colour("Footer background"),
});

/** A save may send only what changed. */
export const siteSettingsUpdateSchema = partialUpdate(siteSettingsSchema);

export type SiteSettings = z.output<typeof siteSettingsSchema>;
export type SiteSettingsInput = z.input<typeof siteSettingsSchema>;
export type SiteSettingsUpdate = z.output<typeof siteSettingsUpdateSchema>;

export const SETTINGS_MESSAGES = {
  saved: "Settings updated successfully!",
  failed: "Failed to save settings",
} as const;
