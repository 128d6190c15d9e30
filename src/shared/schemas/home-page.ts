// Home Page settings: the layout of the site's home page, its hero image and colours, and the
// optional HTML shown below. One schema for the form and the API.
import { z } from "zod";
import { LAYOUT_STYLES } from "../enums.ts";
import { colour as hexColour } from "./text.ts";
import { UPLOAD_URL } from "./uploads.ts";

// The hero's colours are buttons, so the example is the default button colour.
const colour = (label: string) => hexColour(label, "#2563eb");

export const HOME_CONTENT_MAX = 50_000;
/** What the site can put in a stylesheet: https, and none of the characters CSS would need escaped. */
export const HERO_IMAGE_URL = /^https:\/\/[^"'()\\\s<>]+$/;

export const LAYOUT_LABELS: Record<(typeof LAYOUT_STYLES)[number], string> = {
  hero: "Hero: full-screen image with your name, tagline and two buttons",
  left: "Simple, left-aligned",
  center: "Simple, centred",
};

export const homePageSchema = z.strictObject({
  layoutStyle: z.enum(LAYOUT_STYLES, { error: `Layout must be one of ${LAYOUT_STYLES.join(", ")}` }),
  heroImageUrl: z
    .string({ error: "Hero image must be text" })
    .trim()
    .max(2000, { error: "Hero image address must be at most 2000 characters" })
    .refine((v) => v === "" || UPLOAD_URL.test(v) || (HERO_IMAGE_URL.test(v) && URL.canParse(v)), {
      error: "Hero image must be an address starting with https://",
    })
    .nullable()
    .transform((v) => (v ? v : null)),
  heroTextColor: colour("Hero text colour"),
  heroButtonColor: colour("Hero button colour"),
  heroButtonTextColor: colour("Hero button text colour"),
  heroButtonSecondaryColor: colour("Second button colour"),
  heroButtonSecondaryTextColor: colour("Second button text colour"),
  homePageContent: z
    .string({ error: "Home page content must be text" })
    .max(HOME_CONTENT_MAX, {
      error: `Home page content must be at most ${HOME_CONTENT_MAX.toLocaleString("en-GB")} characters`,
    })
    .nullable(),
});

export type HomePageInput = z.input<typeof homePageSchema>;
export type HomePage = z.output<typeof homePageSchema>;

export const HOME_PAGE_MESSAGES = {
  saved: "Home page settings updated successfully!",
  failed: "Failed to save home page settings",
} as const;
