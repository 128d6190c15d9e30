// The buy box of a book page (ADR 036): the book's stores in the author's order, the reader's own
// first. Pure: the handler renders the page once per country group with it, and the buy route
// finds the one stored address a click may go to with it.
import type { BookDetail } from "../server/modules/sites/sites.service.ts";
import {
  type CountryGroup,
  firstStoreDiffers,
  firstStoreIndex,
  storefrontLabel,
  storefrontOfUrl,
} from "../shared/storefronts.ts";
import { isHttp } from "./pages/layout.tsx";

export type Store = {
  /** The retailer link's id, or LEGACY_AMAZON for the book's own Amazon link. */
  id: string;
  name: string;
  url: string;
  storefront: string | null;
  priceMinor: number | null;
  currency: string | null;
};

/** The id in /book/{id}/buy/{link} of the book's own 'Buy From Amazon' link. */
export const LEGACY_AMAZON = "amazon";

/** What Stats counts a store as: its storefront, or "other". */
export const statsKey = (s: Store) => s.storefront ?? "other";

/**
 * Every store readers may be sent to for this book: the book's Amazon link (the spec's 'Buy From
 * Amazon'), then its retailer links when the author shows them; http(s) only, each address once.
 */
export function storesOf(detail: BookDetail): Store[] {
  const b = detail.book;
  const out: Store[] = [];
  const seen = new Set<string>();
  const links = b.additionalStoresEnabled ? (detail.retailers ?? []) : [];
  if (isHttp(b.amazonUrl)) {
    const url = b.amazonUrl.trim();
    const storefront = storefrontOfUrl(url);
    const otherAmazon = links.some((l) => l.storefront?.startsWith("amazon-"));
    out.push({
      id: LEGACY_AMAZON,
      name: otherAmazon && storefront ? storefrontLabel(storefront) : "Amazon",
      url,
      storefront,
      priceMinor: null,
      currency: null,
    });
    seen.add(url);
  }
  for (const l of links) {
    if (!isHttp(l.url)) continue;
    const url = l.url.trim();
    if (seen.has(url)) continue;
    seen.add(url);
    out.push({
      id: l.id,
      name: l.name,
      url,
      storefront: l.storefront,
      priceMinor: l.priceMinor,
      currency: l.currency,
    });
  }
  return out;
}

export type BuyBox = {
  first: Store | null;
  others: Store[];
  /** Whether readers of another group could be shown another first store (the page varies). */
  differs: boolean;
};

/** The reader's first store and the others, in the author's order. */
export function buyBoxFor(detail: BookDetail, group: CountryGroup): BuyBox {
  const stores = storesOf(detail);
  const at = firstStoreIndex(stores, group);
  if (at < 0) return { first: null, others: [], differs: false };
  return { first: stores[at] ?? null, others: stores.filter((_, i) => i !== at), differs: firstStoreDiffers(stores) };
}
