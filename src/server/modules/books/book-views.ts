// What the API answers for a book and what hangs off it, built from the rows the queries read.
import type { Currency } from "../../../shared/enums.ts";
import type { Book, RetailerLink, Review } from "../../../shared/schemas/book.ts";
import type * as q from "./books.queries.ts";

/**
 * A book as the API answers it: every column but the owner, built as one literal rather than a
 * copy of the row through a rest and a spread (the list makes one per book on every request).
 * `books-list-answer.test.ts` holds each list entry to the book's own answer.
 */
export function bookView(r: q.ListRow, overLimit = false): Book {
  return {
    id: r.id,
    title: r.title,
    slug: r.slug,
    subtitle: r.subtitle,
    author: r.author,
    isbn: r.isbn,
    shortBlurb: r.shortBlurb,
    releaseDate: r.releaseDate,
    seriesName: r.seriesName,
    orderInSeries: r.orderInSeries,
    coverImageUrl: r.coverImageUrl,
    coverImageVariants: r.coverImageVariants,
    primaryPriceMinor: r.primaryPriceMinor,
    // The column's check constraint holds it to CURRENCIES.
    primaryCurrency: r.primaryCurrency as Currency,
    formatEbook: r.formatEbook,
    formatPaperback: r.formatPaperback,
    formatHardback: r.formatHardback,
    formatAudiobook: r.formatAudiobook,
    formatKindleUnlimited: r.formatKindleUnlimited,
    format: r.format,
    isFeatured: r.isFeatured,
    visibilityEnabled: r.visibilityEnabled,
    hiddenByPlan: r.hiddenByPlan,
    sortOrder: r.sortOrder,
    userRating: r.userRating == null ? null : Number(r.userRating),
    showUserRating: r.showUserRating,
    bestsellerBadgeEnabled: r.bestsellerBadgeEnabled,
    promoBadgeEnabled: r.promoBadgeEnabled,
    promoBadgeText: r.promoBadgeText,
    amazonRatingEnabled: r.amazonRatingEnabled,
    reviewSnippet: r.reviewSnippet,
    audiobookEnabled: r.audiobookEnabled,
    narratorName: r.narratorName,
    audioSampleUrl: r.audioSampleUrl,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    overLimit,
  };
}

export const linkView = (l: q.RetailerLinkRow): RetailerLink => ({
  id: l.id,
  retailerName: l.retailerName,
  retailerUrl: l.retailerUrl,
  retailerIcon: l.retailerIcon,
  storefront: l.storefront,
  priceMinor: l.priceMinor,
  currency: l.currency,
});

export const reviewView = (r: q.ReviewRow): Review => ({
  id: r.id,
  rating: r.rating == null ? null : Number(r.rating),
  reviewerName: r.reviewerName,
  reviewText: r.reviewText,
  reviewDate: r.reviewDate,
});
