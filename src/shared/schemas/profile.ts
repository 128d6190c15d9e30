// The author's profile: what the public About page, header and footer say about them. One
// schema for the Bio screen and the API, so both give the same message for the same mistake.
import { z } from "zod";
import { namedObject } from "./fragments.ts";
import { partialUpdate, plainText } from "./text.ts";
import { imageVariantsSchema, UPLOAD_URL } from "./uploads.ts";

/** What profiles made before ADR 052 said until the author wrote a bio: treated as no bio at all. */
export const DEFAULT_BIO = "Author bio coming soon...";

export const PROFILE_LIMITS = {
  bio: 20_000,
  tagline: 200,
  photoUrl: 2000,
  genre: 60,
  journeyEntries: 12,
  journeyYear: 30,
  journeyTitle: 100,
  journeyDescription: 500,
} as const;

export const BIO_MESSAGES = {
  saved: "Bio updated successfully!",
  failed: "Failed to save bio",
  loadFailed: "Failed to load profile data.",
  tooLong: "Bio must be at most 20,000 characters",
  photoScheme: "Photo URL must start with https://",
} as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * An https address with a host. Public pages only load images over https (their CSP), so an
 * http:// photo would be saved and then never shown.
 */
export function isHttpsUrl(raw: string): boolean {
  if (!/^https:\/\//i.test(raw) || /\s/.test(raw)) return false;
  try {
    const u = new URL(raw);
    return u.protocol === "https:" && u.hostname !== "";
  } catch {
    return false;
  }
}

/** One card of the About page's 'My Writing Journey': a year (or any short label), a title, a line. */
export const journeyEntrySchema = z.strictObject({
  year: plainText(1, PROFILE_LIMITS.journeyYear, "Year"),
  title: plainText(1, PROFILE_LIMITS.journeyTitle, "Title"),
  description: plainText(0, PROFILE_LIMITS.journeyDescription, "Description"),
});
export type JourneyEntry = z.infer<typeof journeyEntrySchema>;

export const profileUpdateSchema = partialUpdate(
  z.strictObject({
    name: plainText(1, 100, "Name"),
    tagline: plainText(0, PROFILE_LIMITS.tagline, "Tagline")
      .nullable()
      .transform((v) => (v ? v : null)),
    /** Empty: readers see no genre (never a made-up one). */
    genre: plainText(0, PROFILE_LIMITS.genre, "Genre"),
    /** In the author's order; empty: the About page shows no journey. */
    writingJourney: z
      .array(journeyEntrySchema, { error: "Writing journey must be a list" })
      .max(PROFILE_LIMITS.journeyEntries, {
        error: `Writing journey can have at most ${PROFILE_LIMITS.journeyEntries} entries`,
      }),
    /** Rich text (HTML) from the editor; the server cleans it before storing. */
    bio: z
      .string({ error: "Bio must be text" })
      .max(PROFILE_LIMITS.bio, { error: BIO_MESSAGES.tooLong })
      .refine((v) => !CONTROL.test(v), { error: "Bio contains characters that are not allowed" })
      .nullable(),
    authorPhotoUrl: plainText(0, PROFILE_LIMITS.photoUrl, "Photo URL")
      .nullable()
      .transform((v) => (v ? v : null))
      .refine((v) => v === null || isHttpsUrl(v) || UPLOAD_URL.test(v), { error: BIO_MESSAGES.photoScheme }),
  }),
);

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;

/** The author's profile as the API answers it. */
export const profileSchema = namedObject("Profile", {
  id: z.string(),
  name: z.string(),
  email: z.string(),
  bio: z.string(),
  tagline: z.string().nullable(),
  genre: z.string(),
  authorPhotoUrl: z.string().nullable(),
  /** Set when the photo was uploaded (square WebP, widest last); null for an address. */
  authorPhotoVariants: imageVariantsSchema.nullable(),
  writingJourney: z.array(z.object({ year: z.string(), title: z.string(), description: z.string() })),
});
export type Profile = z.infer<typeof profileSchema>;
