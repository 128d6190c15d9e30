// schema.org JSON-LD for the pages that describe a person, a book, a series or blog posts.
import { type BookDetail, type PostView, type SiteContext, seriesSlug } from "../server/modules/sites/sites.service.ts";
import { bookPath } from "../shared/book-path.ts";
import type { Store } from "./buy-box.ts";
import { publicSocialLinks } from "./pages/layout.tsx";
import { type Crumb, isPreorder } from "./pages/parts.tsx";
import { firstImageOf } from "./pages/post-page.tsx";
import { cut, plainText } from "./sanitize.ts";

const absolute = (url: string, origin: string) => (url.startsWith("/") ? origin + url : url);

/**
 * The visible breadcrumb as schema.org's BreadcrumbList: the same steps, each with its address;
 * the last is the page itself (`pagePath`, the path it was asked for).
 */
export function breadcrumbLd(items: Crumb[], origin: string, pagePath: string) {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: items.map((c, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: c.name,
      item: origin + (c.path ?? pagePath),
    })),
  };
}

export function personLd(ctx: SiteContext, origin: string) {
  const p = ctx.profile;
  const sameAs = publicSocialLinks(ctx).map((l) => l.url);
  return {
    "@context": "https://schema.org",
    "@type": "Person",
    name: p.name,
    url: `${origin}/`,
    description: plainText(p.bio) || undefined,
    image: p.authorPhotoUrl
      ? p.authorPhotoUrl.startsWith("/")
        ? origin + p.authorPhotoUrl
        : p.authorPhotoUrl
      : undefined,
    sameAs: sameAs.length ? sameAs : undefined,
  };
}

/** The largest cover variant, else the uploaded cover. */
export const bookCover = (b: Pick<BookDetail["book"], "coverImageVariants" | "coverImageUrl">) =>
  b.coverImageVariants?.at(-1)?.url ?? b.coverImageUrl;

/**
 * A book; its offer is at the store the page shows first (`store`), a PreOrder available from the
 * release date while the date is still to come.
 */
export function bookLd(detail: BookDetail, origin: string, store: Store | null, now: Date) {
  const b = detail.book;
  const preorder = isPreorder(b.releaseDate, now);
  const formats = [
    b.formatEbook && "https://schema.org/EBook",
    b.formatPaperback && "https://schema.org/Paperback",
    b.formatHardback && "https://schema.org/Hardcover",
    b.formatAudiobook && "https://schema.org/AudiobookFormat",
  ].filter(Boolean);
  const cover = bookCover(b);
  return {
    "@context": "https://schema.org",
    "@type": "Book",
    name: b.title,
    alternativeHeadline: b.subtitle ?? undefined,
    author: { "@type": "Person", name: b.author },
    isbn: b.isbn ?? undefined,
    bookFormat: formats.length === 1 ? formats[0] : formats.length ? formats : undefined,
    datePublished: b.releaseDate ?? undefined,
    image: cover ? absolute(cover, origin) : undefined,
    description: plainText(b.shortBlurb) || undefined,
    genre: detail.genres?.length ? detail.genres : undefined,
    url: origin + bookPath(b),
    isPartOf: b.seriesName?.trim()
      ? {
          "@type": "BookSeries",
          name: b.seriesName.trim(),
          url: `${origin}/series/${seriesSlug(b.seriesName)}`,
        }
      : undefined,
    position: b.seriesName?.trim() ? (b.orderInSeries ?? undefined) : undefined,
    offers:
      b.primaryPriceMinor !== null
        ? {
            "@type": "Offer",
            price: (b.primaryPriceMinor / 100).toFixed(2),
            priceCurrency: b.primaryCurrency,
            availability: preorder ? "https://schema.org/PreOrder" : "https://schema.org/InStock",
            availabilityStarts: preorder ? (b.releaseDate ?? undefined) : undefined,
            url: store?.url,
          }
        : undefined,
  };
}

export function blogPostingLd(p: PostView, ctx: SiteContext, origin: string) {
  const image = firstImageOf(p.content);
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: p.title,
    description: cut(plainText(p.content), 160) || undefined,
    datePublished: p.createdAt.toISOString(),
    dateModified: p.updatedAt.toISOString(),
    author: { "@type": "Person", name: ctx.profile.name },
    url: `${origin}/blog/${p.slug}`,
    mainEntityOfPage: `${origin}/blog/${p.slug}`,
    articleSection: p.category,
    image: image ? absolute(image, origin) : undefined,
  };
}

/** A series page: schema.org's BookSeries with its books, in reading order, as parts. */
export function bookSeriesLd(
  series: {
    name: string;
    description: string | null;
    books: { id: string; title: string; slug: string; orderInSeries: number | null }[];
  },
  ctx: SiteContext,
  origin: string,
) {
  const url = `${origin}/series/${seriesSlug(series.name)}`;
  return {
    "@context": "https://schema.org",
    "@type": "BookSeries",
    name: series.name,
    description: series.description ?? undefined,
    url,
    author: { "@type": "Person", name: ctx.profile.name },
    hasPart: series.books.map((b, i) => ({
      "@type": "Book",
      name: b.title,
      url: origin + bookPath(b),
      position: b.orderInSeries ?? i + 1,
    })),
  };
}
