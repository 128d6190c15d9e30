// The book form's own shape: inputs hold strings while the author types; toBookInput turns
// them into the API body (empty optional text → null, price → minor units).
import { z } from "zod";
import { CURRENCIES } from "../../../shared/enums.ts";
import { BOOK_MESSAGES, isValidIsbn, linkCurrency, parsePriceMinor } from "../../../shared/schemas/book.ts";
import { type StoreCurrency, type Storefront, storefrontLabel, storefrontOfUrl } from "../../../shared/storefronts.ts";
import { authorLocale, datePattern, formatDateInput, parseDateInput } from "../../lib/date-input.ts";
import type { BookDetail, BookInput } from "./books-api.ts";

/** A date as the author types it, in their own order (date-input.ts); "" for none. */
const typedDate = () =>
  z.string().refine((v) => parseDateInput(v, authorLocale()) !== null, {
    message: `Please enter the date as ${datePattern(authorLocale())}`,
  });
const isoOrNull = (v: string) => parseDateInput(v, authorLocale()) || null;

const optionalUrl = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === "" || /^https?:\/\/\S+$/i.test(v), {
      message: `${label} must start with http:// or https://`,
    });

export const PRICE_TYPING = /^\d*\.?\d*$/;

export const retailerLinkSchema = z
  .object({
    id: z.string().optional(),
    retailerName: z.string().trim().min(1, { message: "Retailer name is required" }),
    retailerUrl: z
      .string()
      .trim()
      .min(1, { message: "Retailer URL is required" })
      .refine((v) => /^https?:\/\/\S+$/i.test(v), { message: "Retailer URL must start with http:// or https://" }),
    /** A storefront id, or "" for any other store (ADR 036). */
    storefront: z.string().optional(),
    /** The price on this store as typed; "" for none. */
    price: z
      .string()
      .trim()
      .refine((v) => v === "" || (PRICE_TYPING.test(v) && parsePriceMinor(v) !== null), {
        message: BOOK_MESSAGES.price,
      })
      .optional(),
    /** "" for the store's own currency. */
    currency: z.string().optional(),
  })
  .superRefine((l, ctx) => {
    // The server's rules, said while the author types (ADR 036).
    const known = storefrontOfUrl(l.retailerUrl.trim());
    if (l.storefront && known && known !== l.storefront) {
      ctx.addIssue({
        code: "custom",
        path: ["retailerUrl"],
        message: `This link goes to ${storefrontLabel(known)}, not ${storefrontLabel(l.storefront)}`,
      });
    }
    const storefront = l.storefront || known;
    if (l.price?.trim() && !linkCurrency({ storefront, currency: l.currency || null })) {
      ctx.addIssue({ code: "custom", path: ["currency"], message: BOOK_MESSAGES.priceCurrency });
    }
  });

export const reviewSchema = z.object({
  id: z.string().optional(),
  rating: z
    .string()
    .trim()
    .refine((v) => v === "" || (!Number.isNaN(Number(v)) && Number(v) >= 0 && Number(v) <= 5), {
      message: "Rating must be between 0 and 5",
    }),
  reviewerName: z.string().trim(),
  reviewText: z.string().trim().min(1, { message: "Review text is required" }),
  reviewDate: typedDate(),
});

export const bookFormSchema = z
  .object({
    title: z.string().trim().min(1, { message: "Book title is required" }).max(300),
    author: z.string().trim().min(1, { message: "Author name is required" }).max(200),
    subtitle: z.string().trim().max(300),
    isbn: z
      .string()
      .trim()
      .max(20)
      .refine((v) => v === "" || isValidIsbn(v), { message: BOOK_MESSAGES.isbn }),
    shortBlurb: z.string(),
    releaseDate: typedDate(),
    seriesName: z.string().trim().max(200),
    orderInSeries: z
      .string()
      .trim()
      .refine((v) => v === "" || (/^\d+$/.test(v) && Number(v) >= 1), {
        message: "Book number in series must be a whole number of at least 1",
      }),
    formatEbook: z.boolean(),
    formatPaperback: z.boolean(),
    formatHardback: z.boolean(),
    formatAudiobook: z.boolean(),
    formatKindleUnlimited: z.boolean(),
    price: z
      .string()
      .trim()
      .refine((v) => v === "" || (PRICE_TYPING.test(v) && v !== "."), { message: "Please enter a valid price" }),
    primaryCurrency: z.enum(CURRENCIES),
    isFeatured: z.boolean(),
    visibilityEnabled: z.boolean(),
    userRating: z
      .string()
      .trim()
      .refine((v) => v === "" || (!Number.isNaN(Number(v)) && Number(v) >= 0 && Number(v) <= 5), {
        message: "Star rating must be between 0 and 5",
      }),
    showUserRating: z.boolean(),
    bestsellerBadgeEnabled: z.boolean(),
    promoBadgeEnabled: z.boolean(),
    promoBadgeText: z.string().trim().max(40),
    amazonRatingEnabled: z.boolean(),
    reviewSnippet: z.string().trim().max(1000),
    audiobookEnabled: z.boolean(),
    narratorName: z.string().trim().max(200),
    audioSampleUrl: optionalUrl("Audio sample URL"),
    retailerLinks: z.array(retailerLinkSchema),
    genres: z.array(z.string()),
    reviews: z.array(reviewSchema),
  })
  .refine((v) => !v.promoBadgeEnabled || v.promoBadgeText.trim() !== "", {
    message: "Promo badge text is required when the promo badge is on",
    path: ["promoBadgeText"],
  });

export type BookFormValues = z.input<typeof bookFormSchema>;

/** Spec §4: ebook on, other formats off, visible, not featured, GBP, rating toggles off. */
export const EMPTY_BOOK_FORM: BookFormValues = {
  title: "",
  author: "",
  subtitle: "",
  isbn: "",
  shortBlurb: "",
  releaseDate: "",
  seriesName: "",
  orderInSeries: "",
  formatEbook: true,
  formatPaperback: false,
  formatHardback: false,
  formatAudiobook: false,
  formatKindleUnlimited: false,
  price: "",
  primaryCurrency: "GBP",
  isFeatured: false,
  visibilityEnabled: true,
  userRating: "",
  showUserRating: false,
  bestsellerBadgeEnabled: false,
  promoBadgeEnabled: false,
  promoBadgeText: "",
  amazonRatingEnabled: false,
  reviewSnippet: "",
  audiobookEnabled: false,
  narratorName: "",
  audioSampleUrl: "",
  retailerLinks: [],
  genres: [],
  reviews: [],
};

const orNull = (v: string | null | undefined) => {
  const t = (v ?? "").trim();
  return t === "" ? null : t;
};

/** An empty rich-text editor still holds '<p></p>'; that is no blurb. */
function blurbOrNull(html: string): string | null {
  const text = html
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .trim();
  return text === "" ? null : html;
}

export function toBookInput(v: BookFormValues): BookInput {
  const rating = v.userRating.trim() === "" ? Number.NaN : Number(v.userRating);
  return {
    title: v.title.trim(),
    author: v.author.trim(),
    subtitle: orNull(v.subtitle),
    isbn: orNull(v.isbn),
    shortBlurb: blurbOrNull(v.shortBlurb),
    releaseDate: isoOrNull(v.releaseDate),
    seriesName: orNull(v.seriesName),
    orderInSeries: v.orderInSeries.trim() === "" ? null : Number(v.orderInSeries),
    formatEbook: v.formatEbook,
    formatPaperback: v.formatPaperback,
    formatHardback: v.formatHardback,
    formatAudiobook: v.formatAudiobook,
    formatKindleUnlimited: v.formatKindleUnlimited,
    // By the digits, not floating point: 12.345 is 12.35, as the spec's rounding says.
    primaryPriceMinor: parsePriceMinor(v.price),
    primaryCurrency: v.primaryCurrency,
    isFeatured: v.isFeatured,
    visibilityEnabled: v.visibilityEnabled,
    userRating: Number.isFinite(rating) && rating >= 0 && rating <= 5 ? Math.round(rating * 10) / 10 : null,
    showUserRating: v.showUserRating,
    bestsellerBadgeEnabled: v.bestsellerBadgeEnabled,
    promoBadgeEnabled: v.promoBadgeEnabled,
    promoBadgeText: v.promoBadgeEnabled ? orNull(v.promoBadgeText) : null,
    amazonRatingEnabled: v.amazonRatingEnabled,
    reviewSnippet: orNull(v.reviewSnippet),
    audiobookEnabled: v.audiobookEnabled,
    narratorName: orNull(v.narratorName),
    audioSampleUrl: orNull(v.audioSampleUrl),
    retailerLinks: v.retailerLinks.map((l) => {
      const priceMinor = parsePriceMinor(l.price ?? "");
      return {
        ...(l.id ? { id: l.id } : {}),
        retailerName: l.retailerName.trim(),
        retailerUrl: l.retailerUrl.trim(),
        storefront: l.storefront ? (l.storefront as Storefront) : null,
        priceMinor,
        currency: priceMinor === null || !l.currency ? null : (l.currency as StoreCurrency),
      };
    }),
    genres: v.genres,
    reviews: v.reviews.map((r) => ({
      ...(r.id ? { id: r.id } : {}),
      rating: r.rating.trim() === "" ? null : Number(r.rating),
      reviewerName: orNull(r.reviewerName),
      reviewText: r.reviewText.trim(),
      reviewDate: isoOrNull(r.reviewDate),
    })),
  };
}

export function fromBook(b: BookDetail): BookFormValues {
  const s = (v: string | null | undefined) => v ?? "";
  return {
    title: b.title,
    author: b.author,
    subtitle: s(b.subtitle),
    isbn: s(b.isbn),
    shortBlurb: s(b.shortBlurb),
    releaseDate: formatDateInput(b.releaseDate, authorLocale()),
    seriesName: s(b.seriesName),
    orderInSeries: b.orderInSeries == null ? "" : String(b.orderInSeries),
    formatEbook: b.formatEbook,
    formatPaperback: b.formatPaperback,
    formatHardback: b.formatHardback,
    formatAudiobook: b.formatAudiobook,
    formatKindleUnlimited: b.formatKindleUnlimited,
    price: b.primaryPriceMinor == null ? "" : (b.primaryPriceMinor / 100).toFixed(2),
    primaryCurrency: b.primaryCurrency,
    isFeatured: b.isFeatured,
    visibilityEnabled: b.visibilityEnabled,
    userRating: b.userRating == null ? "" : String(b.userRating),
    showUserRating: b.showUserRating,
    bestsellerBadgeEnabled: b.bestsellerBadgeEnabled,
    promoBadgeEnabled: b.promoBadgeEnabled,
    promoBadgeText: s(b.promoBadgeText),
    amazonRatingEnabled: b.amazonRatingEnabled,
    reviewSnippet: s(b.reviewSnippet),
    audiobookEnabled: b.audiobookEnabled,
    narratorName: s(b.narratorName),
    audioSampleUrl: s(b.audioSampleUrl),
    retailerLinks: b.retailerLinks.map((l) => ({
      id: l.id,
      retailerName: l.retailerName,
      retailerUrl: l.retailerUrl,
      storefront: l.storefront ?? "",
      price: l.priceMinor == null ? "" : (l.priceMinor / 100).toFixed(2),
      currency: l.currency ?? "",
    })),
    genres: b.genres,
    reviews: b.reviews.map((r) => ({
      id: r.id,
      rating: r.rating == null ? "" : String(r.rating),
      reviewerName: s(r.reviewerName),
      reviewText: r.reviewText,
      reviewDate: formatDateInput(r.reviewDate, authorLocale()),
    })),
  };
}
