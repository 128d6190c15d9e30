// The buy box of a book page (ADR 036): the book's stores in the author's order, the reader's own
// first. Pure: the handler renders the page once per country group with it, and the buy route
// finds the one stored address a click may go to with it.
import type { BookDetail, BookStore } from "../server/modules/sites/sites.service.ts";
import { type CountryGroup, firstStoreDiffers, firstStoreIndex, servesGroup } from "../shared/storefronts.ts";
import { isHttp } from "./pages/layout.tsx";

export type Store = BookStore;

/** What Stats counts a store as: its storefront, or "other". */
export const statsKey = (s: Store) => s.storefront ?? "other";

const isAmazon = (s: Store) => s.storefront?.startsWith("amazon-") ?? false;

/**
 * Every store readers may be sent to for this book: its store links in the author's order, every
 * one of them (issue 30: no switch hides them); http(s) only, each address once.
 */
export function storesOf(detail: BookDetail): Store[] {
  const out: Store[] = [];
  const seen = new Set<string>();
  for (const l of detail.retailers ?? []) {
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

/**
 * The reader's first store and the others, in the author's order. Of the book's Amazon
 * marketplaces readers see one: their own when the author has it, else the author's first (an
 * Amazon of another country is a store they cannot easily buy from).
 */
export function buyBoxFor(detail: BookDetail, group: CountryGroup): BuyBox {
  const stores = storesOf(detail);
  const at = firstStoreIndex(stores, group);
  if (at < 0) return { first: null, others: [], differs: false };
  const first = stores[at] ?? null;
  const amazons = stores.filter(isAmazon);
  const amazon = amazons.find((s) => servesGroup(s.storefront, group)) ?? amazons[0];
  return {
    first,
    others: stores.filter((s, i) => i !== at && (!isAmazon(s) || (s === amazon && !(first && isAmazon(first))))),
    differs: firstStoreDiffers(stores),
  };
}
