// What the books API answers (the app's types come from these, ADR 021). The inputs and their
// rules are in book.ts, which re-exports these so that a screen imports one place.
import { z } from "zod";
import { CURRENCIES, TIERS } from "../enums.ts";
import { namedObject, stamps } from "./fragments.ts";
import { imageVariantsSchema } from "./uploads.ts";

export const retailerLinkSchema = namedObject("RetailerLink", {
  id: z.string(),
  retailerName: z.string(),
  retailerUrl: z.string(),
  retailerIcon: z.string().nullable(),
  /** A storefront id (src/shared/storefronts.ts) or null for any other store. */
  storefront: z.string().nullable(),
  priceMinor: z.number().nullable(),
  currency: z.string().nullable(),
});
export type RetailerLink = z.infer<typeof retailerLinkSchema>;

export const reviewSchema = namedObject("Review", {
  id: z.string(),
  rating: z.number().nullable(),
  reviewerName: z.string().nullable(),
  reviewText: z.string(),
  reviewDate: z.string().nullable(),
});
export type Review = z.infer<typeof reviewSchema>;

export const bookSchema = namedObject("Book", {
  id: z.string(),
  title: z.string(),
  /** The book's address on the site: `bookPath` (src/shared/book-path.ts) gives `/book/{slug}`. */
  slug: z.string(),
  subtitle: z.string().nullable(),
  author: z.string(),
  isbn: z.string().nullable(),
  /** Cleaned HTML. */
  shortBlurb: z.string().nullable(),
  releaseDate: z.string().nullable(),
  seriesName: z.string().nullable(),
  orderInSeries: z.number().nullable(),
  coverImageUrl: z.string().nullable(),
  /** The stored WebP sizes of the cover, widest last. */
  coverImageVariants: imageVariantsSchema.nullable(),
  primaryPriceMinor: z.number().nullable(),
  primaryCurrency: z.enum(CURRENCIES),
  formatEbook: z.boolean(),
  formatPaperback: z.boolean(),
  formatHardback: z.boolean(),
  formatAudiobook: z.boolean(),
  formatKindleUnlimited: z.boolean(),
  format: z.string(),
  isFeatured: z.boolean(),
  visibilityEnabled: z.boolean(),
  sortOrder: z.number(),
  userRating: z.number().nullable(),
  showUserRating: z.boolean(),
  bestsellerBadgeEnabled: z.boolean(),
  promoBadgeEnabled: z.boolean(),
  promoBadgeText: z.string().nullable(),
  amazonRatingEnabled: z.boolean(),
  reviewSnippet: z.string().nullable(),
  audiobookEnabled: z.boolean(),
  narratorName: z.string().nullable(),
  audioSampleUrl: z.string().nullable(),
  ...stamps,
  /** Hidden because a smaller plan did not cover it (ADR 054): a bigger plan shows it again. */
  hiddenByPlan: z.boolean(),
  /**
   * Visible but beyond the plan's limit by position: kept, not shown publicly. Only when the
   * plan changed without the books being fitted to it (a tier written by hand); ADR 054.
   */
  overLimit: z.boolean(),
});
export type Book = z.infer<typeof bookSchema>;

/** One book with what hangs off it. */
export const bookDetailSchema = bookSchema
  .extend({ retailerLinks: z.array(retailerLinkSchema), genres: z.array(z.string()), reviews: z.array(reviewSchema) })
  .meta({ id: "BookDetail" });
export type BookDetail = z.infer<typeof bookDetailSchema>;

/**
 * How many books the plan allows and how many the author has (`used`, hidden ones too), how many
 * readers see (`shown`, never over `limit`) and how many the plan keeps off the site.
 */
export const capacitySchema = namedObject("BookCapacity", {
  tier: z.enum(TIERS),
  limit: z.number(),
  used: z.number(),
  shown: z.number(),
  hiddenByPlan: z.number(),
  canAdd: z.boolean(),
});
export type Capacity = z.infer<typeof capacitySchema>;
