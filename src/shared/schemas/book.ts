// Inputs of the books API (server checks; the book form uses the same rules and messages).
// Spec: title and author required and trimmed; ISBN-10/13 checksum; series number a whole
// number ≥ 1; price rounded to 2 decimals (empty, invalid or negative → none); star rating 0–5
// in steps of 0.1; promo text only with the promo badge; retailer links need a name and an
// http(s) URL; empty optional text is saved as none.
import { z } from "zod";
import { CURRENCIES } from "../enums.ts";
import { isStorefront, STORE_CURRENCIES, STOREFRONTS, storefrontLabel, storefrontOfUrl } from "../storefronts.ts";
import { partialUpdate, plainText } from "./text.ts";

export const BOOK_MESSAGES = {
  title: "Book title is required",
  author: "Author name is required",
  bothRequired: "Please enter both the book title and author name.",
  requiredInline: "Please fill in the required fields: Title and Author",
  limit: "Book limit exceeded for current plan",
  showLimit: (plan: string, limit: number) =>
    `Your ${plan} plan shows ${limit} books on your site. Hide one of them first, or upgrade to show more.`,
  keepAtMost: (plan: string, limit: number) => `The ${plan} plan shows ${limit} books: choose at most ${limit}.`,
  notFound: "Book not found",
  isbn: "Please enter a valid ISBN-10 or ISBN-13",
  seriesNumber: "Book number in series must be a whole number of at least 1",
  rating: "Star rating must be between 0 and 5",
  ratingStep: "Star rating must be in steps of 0.1",
  reviewRating: "Rating must be between 0 and 5",
  price: "Please enter a valid price",
  promoText: "Promo badge text is required when the promo badge is on",
  retailerBoth: "Please enter both the retailer name and URL",
  retailerName: "Retailer name is required",
  retailerUrl: "Retailer URL is required",
  retailerUrlScheme: "Retailer URL must start with http:// or https://",
  storefront: "Unknown storefront",
  priceCurrency: "Please choose the currency of the price",
  reviewText: "Review text is required",
  notImage: "Please select an image file",
} as const;

/** Text limits, shared with the form's inputs. */
export const BOOK_LIMITS = {
  title: 300,
  subtitle: 300,
  author: 200,
  isbn: 20,
  blurb: 20_000,
  seriesName: 200,
  promoBadgeText: 40,
  reviewSnippet: 1000,
  narratorName: 200,
  url: 2000,
  retailerName: 100,
  retailerIcon: 100,
  retailerLinks: 20,
  genre: 50,
  genres: 20,
  reviewerName: 200,
  reviewText: 5000,
  reviews: 50,
  /** Largest price in minor units (one million in the book's currency). */
  priceMinor: 100_000_000,
  seriesNumber: 100_000,
} as const;

// ---------------------------------------------------------------------------------------------
// Pure helpers (the form uses them while the author types).

/** ISBN-10 (last character may be X) or ISBN-13, hyphens and spaces allowed, checksum checked. */
export function isValidIsbn(raw: string): boolean {
  const s = raw.replace(/[\s-]/g, "").toUpperCase();
  if (/^\d{9}[\dX]$/.test(s)) {
    let sum = 0;
    for (let i = 0; i < 10; i++) {
      const ch = s[i] ?? "0";
      sum += (ch === "X" ? 10 : Number(ch)) * (10 - i);
    }
    return sum % 11 === 0;
  }
  if (/^\d{13}$/.test(s)) {
    let sum = 0;
    for (let i = 0; i < 13; i++) sum += Number(s[i]) * (i % 2 === 0 ? 1 : 3);
    return sum % 10 === 0;
  }
  return false;
}

/** Only http(s) addresses with a host; `javascript:`, `ftp:` and relative paths are refused. */
export function isHttpUrl(raw: string): boolean {
  if (!/^https?:\/\//i.test(raw) || /\s/.test(raw)) return false;
  try {
    const u = new URL(raw);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * The price the author typed, in minor units: rounded half-up to 2 decimals by its digits (not
 * by floating point, so '1.005' is 1.01). Empty, invalid or negative → null (no price).
 */
export function parsePriceMinor(raw: string | number | null | undefined): number | null {
  if (raw === null || raw === undefined) return null;
  const text = typeof raw === "number" ? (Number.isFinite(raw) ? String(raw) : "") : raw.trim();
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || text === "" || text === ".") return null;
  const whole = m[1] ?? "";
  const frac = `${m[2] ?? ""}000`;
  let minor = Number(whole || "0") * 100 + Number(frac.slice(0, 2));
  if (Number(frac[2]) >= 5) minor += 1;
  if (!Number.isSafeInteger(minor) || minor > BOOK_LIMITS.priceMinor) return null;
  return minor;
}

/** A rating on the 0–5 scale in steps of 0.1; anything else (or empty) → null. */
export function parseRating(raw: string | number | null | undefined): number | null {
  if (raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "")) return null;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 5) return null;
  return Math.round(n * 10) / 10;
}

const isTenth = (n: number) => Math.abs(n * 10 - Math.round(n * 10)) < 1e-9;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export function isIsoDate(raw: string): boolean {
  const m = ISO_DATE.exec(raw);
  if (!m) return false;
  const d = new Date(`${raw}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === raw && Number(m[1]) >= 1000;
}

// ---------------------------------------------------------------------------------------------
// Field schemas.

const nullish = (v: unknown) => (v === undefined || v === null ? "" : v);

/** Trimmed text, not empty (`message`, the spec's), plain and at most `max` long. */
function requiredString(max: number, label: string, message: string) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .min(1, { error: message })
    .pipe(plainText(1, max, label));
}

/** Required trimmed text whose empty message is the spec's; a missing or null value is empty. */
function requiredText(max: number, label: string, message: string) {
  return z.preprocess(nullish, requiredString(max, label, message));
}

/** Optional text: trimmed; empty (or null) → null. */
function optionalText(max: number, label: string) {
  return z.preprocess(nullish, plainText(0, max, label)).transform((v) => (v === "" ? null : v));
}

/** Optional http(s) URL: empty → null. */
function optionalUrl(label: string) {
  return optionalText(BOOK_LIMITS.url, label).refine((v) => v === null || isHttpUrl(v), {
    error: `${label} must start with http:// or https://`,
  });
}

/** Optional ISO date (YYYY-MM-DD): empty → null. */
function optionalDate(label: string) {
  return optionalText(10, label).refine((v) => v === null || isIsoDate(v), {
    error: `${label} must be a valid date (YYYY-MM-DD)`,
  });
}

/** 0–5 in steps of 0.1, or null. */
function ratingSchema(message: string) {
  return z
    .number({ error: message })
    .min(0, { error: message })
    .max(5, { error: message })
    .refine(isTenth, { error: BOOK_MESSAGES.ratingStep })
    .nullable();
}

const idSchema = z.uuid({ error: "Invalid id" });

export const retailerLinkInputSchema = z
  .strictObject({
    id: idSchema.optional(),
    retailerName: requiredText(BOOK_LIMITS.retailerName, "Retailer name", BOOK_MESSAGES.retailerName),
    retailerUrl: z.preprocess(
      nullish,
      requiredString(BOOK_LIMITS.url, "Retailer URL", BOOK_MESSAGES.retailerUrl).refine(isHttpUrl, {
        error: BOOK_MESSAGES.retailerUrlScheme,
      }),
    ),
    retailerIcon: optionalText(BOOK_LIMITS.retailerIcon, "Retailer icon").optional(),
    /** Which store (ADR 036); null is any other store; left out, the server reads it from the URL. */
    storefront: z
      .string({ error: BOOK_MESSAGES.storefront })
      .refine(isStorefront, { error: BOOK_MESSAGES.storefront })
      .nullable()
      .optional(),
    /** The price on this store, in minor units of `currency`; both or neither. */
    priceMinor: z
      .number({ error: BOOK_MESSAGES.price })
      .int({ error: BOOK_MESSAGES.price })
      .min(0, { error: BOOK_MESSAGES.price })
      .max(BOOK_LIMITS.priceMinor, { error: "Price is too large" })
      .nullable()
      .optional(),
    currency: z
      .enum(STORE_CURRENCIES, { error: `Currency must be one of ${STORE_CURRENCIES.join(", ")}` })
      .nullable()
      .optional(),
  })
  .superRefine((l, ctx) => {
    const known = storefrontOfUrl(l.retailerUrl);
    if (l.storefront && known && known !== l.storefront) {
      ctx.addIssue({
        code: "custom",
        path: ["retailerUrl"],
        message: `This link goes to ${storefrontLabel(known)}, not ${storefrontLabel(l.storefront)}`,
      });
    }
    const storefront = l.storefront === undefined ? known : l.storefront;
    if ((l.priceMinor ?? null) !== null && !linkCurrency({ storefront, currency: l.currency ?? null })) {
      ctx.addIssue({ code: "custom", path: ["currency"], message: BOOK_MESSAGES.priceCurrency });
    }
  });
export type RetailerLinkInput = z.infer<typeof retailerLinkInputSchema>;

/** A link's price currency: the one given, else its storefront's own (Amazon.de is in euros). */
export function linkCurrency(l: { storefront?: string | null; currency?: string | null }): string | null {
  if (l.currency) return l.currency;
  const s = l.storefront;
  return s && isStorefront(s) ? ((STOREFRONTS[s] as { currency?: string }).currency ?? null) : null;
}

export const retailerLinksSchema = z
  .array(retailerLinkInputSchema, { error: "Retailer links must be a list" })
  .max(BOOK_LIMITS.retailerLinks, { error: `At most ${BOOK_LIMITS.retailerLinks} retailer links` });

/** Genres as tags: trimmed, inner spaces collapsed, empty ones dropped, duplicates (any case) once. */
export const genresSchema = z
  .array(
    z.preprocess((v) => (typeof v === "string" ? v.replace(/\s+/g, " ") : v), plainText(0, BOOK_LIMITS.genre, "Genre")),
    { error: "Genres must be a list" },
  )
  .transform((list) => {
    const seen = new Set<string>();
    return list.filter((g) => {
      const key = g.toLowerCase();
      if (g === "" || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  })
  .refine((list) => list.length <= BOOK_LIMITS.genres, { error: `At most ${BOOK_LIMITS.genres} genres` });

export const reviewInputSchema = z.strictObject({
  id: idSchema.optional(),
  rating: ratingSchema(BOOK_MESSAGES.reviewRating).optional(),
  reviewerName: optionalText(BOOK_LIMITS.reviewerName, "Reviewer name").optional(),
  reviewText: requiredText(BOOK_LIMITS.reviewText, "Review text", BOOK_MESSAGES.reviewText),
  reviewDate: optionalDate("Review date").optional(),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;

export const reviewsSchema = z
  .array(reviewInputSchema, { error: "Reviews must be a list" })
  .max(BOOK_LIMITS.reviews, { error: `At most ${BOOK_LIMITS.reviews} reviews` });

/** A control character other than tab and newline never belongs in stored HTML either. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const bookFields = {
  title: requiredText(BOOK_LIMITS.title, "Title", BOOK_MESSAGES.title),
  author: requiredText(BOOK_LIMITS.author, "Author", BOOK_MESSAGES.author),
  subtitle: optionalText(BOOK_LIMITS.subtitle, "Subtitle"),
  isbn: optionalText(BOOK_LIMITS.isbn, "ISBN").refine((v) => v === null || isValidIsbn(v), {
    error: BOOK_MESSAGES.isbn,
  }),
  /** Rich text (HTML); the server cleans it before storing. */
  shortBlurb: z
    .string({ error: "Blurb must be text" })
    .max(BOOK_LIMITS.blurb, { error: `Blurb must be at most ${BOOK_LIMITS.blurb} characters` })
    .refine((v) => !CONTROL.test(v), { error: "Blurb contains characters that are not allowed" })
    .nullable(),
  releaseDate: optionalDate("Release date"),
  seriesName: optionalText(BOOK_LIMITS.seriesName, "Series name"),
  orderInSeries: z
    .number({ error: BOOK_MESSAGES.seriesNumber })
    .int({ error: BOOK_MESSAGES.seriesNumber })
    .min(1, { error: BOOK_MESSAGES.seriesNumber })
    .max(BOOK_LIMITS.seriesNumber, { error: `Book number in series must be at most ${BOOK_LIMITS.seriesNumber}` })
    .nullable(),
  formatEbook: z.boolean({ error: "formatEbook must be true or false" }),
  formatPaperback: z.boolean({ error: "formatPaperback must be true or false" }),
  formatHardback: z.boolean({ error: "formatHardback must be true or false" }),
  formatAudiobook: z.boolean({ error: "formatAudiobook must be true or false" }),
  formatKindleUnlimited: z.boolean({ error: "formatKindleUnlimited must be true or false" }),
  /**
   * Minor units. The spec's price rule (rounded to 2 decimals; invalid or negative → none) is
   * applied to what arrives: a fraction of a minor unit is rounded, a negative amount is none.
   */
  primaryPriceMinor: z
    .number({ error: BOOK_MESSAGES.price })
    .max(BOOK_LIMITS.priceMinor, { error: "Price is too large" })
    .transform((v) => (v < 0 ? null : Math.round(v)))
    .nullable(),
  primaryCurrency: z.enum(CURRENCIES, { error: `Currency must be one of ${CURRENCIES.join(", ")}` }),
  isFeatured: z.boolean({ error: "isFeatured must be true or false" }),
  visibilityEnabled: z.boolean({ error: "visibilityEnabled must be true or false" }),
  userRating: ratingSchema(BOOK_MESSAGES.rating),
  showUserRating: z.boolean({ error: "showUserRating must be true or false" }),
  bestsellerBadgeEnabled: z.boolean({ error: "bestsellerBadgeEnabled must be true or false" }),
  promoBadgeEnabled: z.boolean({ error: "promoBadgeEnabled must be true or false" }),
  promoBadgeText: optionalText(BOOK_LIMITS.promoBadgeText, "Promo badge text"),
  amazonRatingEnabled: z.boolean({ error: "amazonRatingEnabled must be true or false" }),
  reviewSnippet: optionalText(BOOK_LIMITS.reviewSnippet, "Review snippet"),
  audiobookEnabled: z.boolean({ error: "audiobookEnabled must be true or false" }),
  narratorName: optionalText(BOOK_LIMITS.narratorName, "Narrator"),
  audioSampleUrl: optionalUrl("Audio sample URL"),
  retailerLinks: retailerLinksSchema,
  genres: genresSchema,
  reviews: reviewsSchema,
};

const { title: _title, author: _author, ...optionalFields } = bookFields;
const optionalMask = Object.fromEntries(Object.keys(optionalFields).map((k) => [k, true])) as {
  [K in keyof typeof optionalFields]: true;
};

/**
 * A new book: title and author required; every other field optional (the spec's defaults:
 * ebook on, visible, not featured, GBP, rating toggles off).
 */
export const bookCreateSchema = z.strictObject(bookFields).partial(optionalMask);
export type BookCreateInput = z.infer<typeof bookCreateSchema>;

/** A change to a book: any subset of the fields; an empty change is refused. */
export const bookUpdateSchema = partialUpdate(bookCreateSchema);
export type BookUpdateInput = z.infer<typeof bookUpdateSchema>;

export const visibilitySchema = z.strictObject({
  visible: z.boolean({ error: "visible must be true or false" }),
});

export const moveSchema = z.strictObject({
  /** 1-based target; clamped to 1..total by the server, as the spec's 'Go to' is. */
  position: z
    .number({ error: "Position must be a number" })
    .int({ error: "Position must be a whole number" })
    .min(-1_000_000, { error: "Position is out of range" })
    .max(1_000_000, { error: "Position is out of range" }),
});

export const orderSchema = z.strictObject({
  ids: z
    .array(idSchema, { error: "ids must be a list of book ids" })
    .min(1, { error: "ids must name at least one book" })
    .max(1000, { error: "Too many ids" })
    .refine((ids) => new Set(ids).size === ids.length, { error: "ids must not repeat a book" }),
});

export const retailerLinksBodySchema = z.strictObject({ retailerLinks: retailerLinksSchema });
export const genresBodySchema = z.strictObject({ genres: genresSchema });
export const reviewUpdateSchema = partialUpdate(reviewInputSchema.omit({ id: true }));

/** Cover uploads: the largest file accepted, and the widths of the stored WebP variants. */
export const COVER_MAX_BYTES = 10 * 1024 * 1024;
export const COVER_WIDTHS = [200, 400, 800] as const;

// What the API answers: book-answers.ts.
export type { Book, BookDetail, Capacity, RetailerLink, Review } from "./book-answers.ts";
export { bookDetailSchema, bookSchema, capacitySchema, retailerLinkSchema, reviewSchema } from "./book-answers.ts";
