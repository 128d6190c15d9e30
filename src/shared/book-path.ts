// A book's public address on its site (ADR 051). Every link to a book page, in the sites, the
// sitemap, JSON-LD, mails and the dashboard, is built here, so the address has one shape.
import { slugify } from "./slug.ts";

/** The slug a title gives before any -2, -3 for a clash: "The Gilded Cage" → "the-gilded-cage". */
export const bookSlugOf = (title: string) => slugify(title, "book");

/** `/book/{slug}`: the page of the book. */
export const bookPath = (b: { slug: string }) => `/book/${encodeURIComponent(b.slug)}`;

/** The link a reader follows to one of the book's stores (counted, then sent on; ADR 036). */
export const bookBuyPath = (b: { slug: string }, storeId: string) =>
  `${bookPath(b)}/buy/${encodeURIComponent(storeId)}`;

/** Where the book page's release-alert form posts. */
export const bookAlertPath = (b: { slug: string }) => `${bookPath(b)}/alert`;
