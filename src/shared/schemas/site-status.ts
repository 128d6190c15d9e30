// What readers can see of an author's site, as the public renderer decides it (ADR 052): whether
// the site is open to readers at all, and which sections are in its menu. The dashboard reads it
// from GET /api/site/status instead of guessing from the subscription.
import { z } from "zod";

/**
 * Sections that stay out of the menu (and answer 404) while they have nothing in them, unless
 * the author chose to show them anyway. Home, Contact and Privacy are never empty.
 */
export const EMPTY_HIDDEN_SECTIONS = ["books", "about", "blog", "newsletter"] as const;
export type EmptyHiddenSection = (typeof EMPTY_HIDDEN_SECTIONS)[number];

export const showWhenEmptySchema = z
  .array(z.enum(EMPTY_HIDDEN_SECTIONS, { error: `Sections must be among ${EMPTY_HIDDEN_SECTIONS.join(", ")}` }), {
    error: "Sections to show when empty must be a list",
  })
  .max(EMPTY_HIDDEN_SECTIONS.length)
  .transform((v) => [...new Set(v)]);

/**
 * Whether an author's site is published: every subscription is, except a trial whose checkout
 * never took a card (onboarding makes the row; checkout sets the provider's id). Plans running
 * without a provider (the demo, granted by staff) are public. The public renderer decides with
 * it (`visibility`), the staff's user list shows it.
 */
export function isPublished(subscription: { status: string | null; checkoutCompleted: boolean }): boolean {
  return !(subscription.status === "trial" && !subscription.checkoutCompleted);
}

/** Why readers can or cannot see the site: 'live' is the only state in which the dashboard says live. */
export const SITE_VISIBILITY = ["live", "awaiting_checkout", "offline"] as const;
export type SiteVisibility = (typeof SITE_VISIBILITY)[number];

const sectionStateSchema = z.object({
  /** The author's page switch in Site Settings. */
  enabled: z.boolean(),
  /** Something for readers is in it (a book, a bio, a post, a sign-up form). */
  hasContent: z.boolean(),
  /** The author chose to show it while empty. */
  showWhenEmpty: z.boolean(),
  /** In the menu and answering: enabled and (has content or shown while empty). */
  shown: z.boolean(),
});
export type SectionState = z.infer<typeof sectionStateSchema>;

/** What readers see, as the public renderer decides it (`getSiteStatus`). */
export const readersStatusSchema = z.object({
  visibility: z.enum(SITE_VISIBILITY),
  sections: z.object({
    books: sectionStateSchema,
    about: sectionStateSchema,
    blog: sectionStateSchema,
    newsletter: sectionStateSchema,
  }),
  /** The author wrote no genre: readers see none. */
  genreMissing: z.boolean(),
  /** The Privacy & Legal page shows the generated notice (the author has not written their own). */
  privacyGenerated: z.boolean(),
});
export type ReadersStatus = z.infer<typeof readersStatusSchema>;

/** The dashboard's answer: what readers see, and whether the author hid the getting-started list. */
export const siteStatusSchema = readersStatusSchema
  .extend({
    /** The author hid the dashboard's getting-started checklist (on every device: it is stored with the site). */
    checklistHidden: z.boolean(),
  })
  .meta({ id: "SiteStatus" });
export type SiteStatus = z.infer<typeof siteStatusSchema>;

/** What the author may change of it: the checklist hidden or shown again. */
export const siteStatusUpdateSchema = z.strictObject({
  checklistHidden: z.boolean({ error: "Checklist hidden must be true or false" }),
});
export type SiteStatusUpdate = z.infer<typeof siteStatusUpdateSchema>;
