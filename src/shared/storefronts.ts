// The buy box's storefronts (issue 17, ADR 036): which store a retailer link is, which readers it
// serves, and the few country groups a book page differs by. Pure and shared: the server chooses
// a reader's first store with these, the book form offers them and builds Amazon links from an
// ASIN.

/**
 * Country groups: the readers a page may be rendered for differently. One per Amazon marketplace
 * we offer (the store that differs most by country), "" for everyone else. A page cache holds at
 * most one copy of a book page per group.
 */
export const COUNTRY_GROUPS = ["us", "uk", "de", "fr", "es", "it", "nl", "ca", "au", "in"] as const;
export type CountryGroup = (typeof COUNTRY_GROUPS)[number] | "";

/** ISO 3166-1 alpha-2 (upper case) → the group whose stores serve it; absent → "". */
const GROUP_OF_COUNTRY: Record<string, CountryGroup> = {
  US: "us",
  PR: "us",
  GB: "uk",
  IE: "uk",
  IM: "uk",
  JE: "uk",
  GG: "uk",
  DE: "de",
  AT: "de",
  CH: "de",
  LI: "de",
  LU: "de",
  FR: "fr",
  BE: "fr",
  MC: "fr",
  ES: "es",
  PT: "es",
  IT: "it",
  SM: "it",
  VA: "it",
  NL: "nl",
  CA: "ca",
  AU: "au",
  NZ: "au",
  IN: "in",
};

/** A language without a region names the country most of its readers buy from. */
const GROUP_OF_LANGUAGE: Record<string, CountryGroup> = {
  de: "de",
  fr: "fr",
  es: "es",
  it: "it",
  nl: "nl",
  hi: "in",
};

/** The group of a two-letter country code (any case); unknown or malformed → "". */
export function groupOfCountry(code: string | undefined): CountryGroup {
  if (code?.length !== 2) return "";
  return GROUP_OF_COUNTRY[code.toUpperCase()] ?? "";
}

/**
 * The group of an Accept-Language header: the first of its first few tags that names a region
 * (en-GB → uk) or a language with a home market (de → de). Cheap on purpose: it runs for every
 * uncached and cached book page view; q-values are left aside (browsers list in preference order).
 */
export function groupOfLanguages(header: string | undefined): CountryGroup {
  if (!header) return "";
  let start = 0;
  for (let i = 0; i < 4 && start < header.length; i++) {
    let end = header.indexOf(",", start);
    if (end < 0) end = header.length;
    const semi = header.indexOf(";", start);
    const tag = header
      .slice(start, semi >= 0 && semi < end ? semi : end)
      .trim()
      .toLowerCase();
    start = end + 1;
    const dash = tag.indexOf("-");
    const lang = dash < 0 ? tag : tag.slice(0, dash);
    if (dash >= 0) {
      // The region follows the language, or the language and a script (en-GB, zh-Hant-TW).
      const [second = "", third = ""] = tag.slice(dash + 1).split("-", 2);
      const region = second.length === 4 ? third : second;
      if (region.length === 2) {
        const g = groupOfCountry(region);
        if (g) return g;
      }
    }
    const byLang = GROUP_OF_LANGUAGE[lang];
    if (byLang) return byLang;
    if (lang === "en" && dash < 0) return "";
  }
  return "";
}

/** The reader's group: the trusted country header when there is one, else their languages. */
export function countryGroup(country: string | undefined, languages: string | undefined): CountryGroup {
  if (country !== undefined) return groupOfCountry(country.trim());
  return groupOfLanguages(languages);
}

/** Currencies a link's price may be in: the plans' five and the rupee (Amazon India). */
export const STORE_CURRENCIES = ["USD", "GBP", "EUR", "CAD", "AUD", "INR"] as const;
export type StoreCurrency = (typeof STORE_CURRENCIES)[number];

type StorefrontInfo = {
  label: string;
  /** The groups it serves; "*" for every reader. */
  serves: readonly CountryGroup[] | "*";
  /** The currency its prices are in, when it has one. */
  currency?: StoreCurrency;
  /** Amazon's host for the marketplace (links are built from an ASIN). */
  amazonHost?: string;
};

export const STOREFRONTS = {
  "amazon-us": { label: "Amazon.com", serves: ["us"], currency: "USD", amazonHost: "www.amazon.com" },
  "amazon-uk": { label: "Amazon.co.uk", serves: ["uk"], currency: "GBP", amazonHost: "www.amazon.co.uk" },
  "amazon-de": { label: "Amazon.de", serves: ["de"], currency: "EUR", amazonHost: "www.amazon.de" },
  "amazon-fr": { label: "Amazon.fr", serves: ["fr"], currency: "EUR", amazonHost: "www.amazon.fr" },
  "amazon-es": { label: "Amazon.es", serves: ["es"], currency: "EUR", amazonHost: "www.amazon.es" },
  "amazon-it": { label: "Amazon.it", serves: ["it"], currency: "EUR", amazonHost: "www.amazon.it" },
  "amazon-nl": { label: "Amazon.nl", serves: ["nl"], currency: "EUR", amazonHost: "www.amazon.nl" },
  "amazon-ca": { label: "Amazon.ca", serves: ["ca"], currency: "CAD", amazonHost: "www.amazon.ca" },
  "amazon-au": { label: "Amazon.com.au", serves: ["au"], currency: "AUD", amazonHost: "www.amazon.com.au" },
  "amazon-in": { label: "Amazon.in", serves: ["in"], currency: "INR", amazonHost: "www.amazon.in" },
  apple: { label: "Apple Books", serves: "*" },
  kobo: { label: "Kobo", serves: "*" },
  "barnes-noble": { label: "Barnes & Noble", serves: ["us"], currency: "USD" },
  "google-play": { label: "Google Play Books", serves: "*" },
  "bookshop-us": { label: "Bookshop.org (US)", serves: ["us"], currency: "USD" },
  "bookshop-uk": { label: "Bookshop.org (UK)", serves: ["uk"], currency: "GBP" },
} as const satisfies Record<string, StorefrontInfo>;

export type Storefront = keyof typeof STOREFRONTS;
export const STOREFRONT_IDS = Object.keys(STOREFRONTS) as Storefront[];
export const AMAZON_STOREFRONTS = STOREFRONT_IDS.filter((s) => s.startsWith("amazon-"));

export const isStorefront = (v: unknown): v is Storefront => typeof v === "string" && Object.hasOwn(STOREFRONTS, v);

/** What readers and the author see for a link's store: the storefront's name, or "Other". */
export const storefrontLabel = (s: string | null | undefined): string =>
  s && isStorefront(s) ? STOREFRONTS[s].label : "Other";

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

/** The storefront a link's address points at, or null (any other store). */
export function storefrontOfUrl(url: string): Storefront | null {
  const host = hostOf(url);
  if (!host) return null;
  for (const id of AMAZON_STOREFRONTS) {
    const own = (STOREFRONTS[id] as StorefrontInfo).amazonHost?.replace(/^www\./, "");
    if (host === own || host === `smile.${own}`) return id;
  }
  if (host === "books.apple.com" || host === "itunes.apple.com") return "apple";
  if (host === "kobo.com" || host.endsWith(".kobo.com")) return "kobo";
  if (host === "barnesandnoble.com") return "barnes-noble";
  if (host === "play.google.com") return "google-play";
  if (host === "bookshop.org") return "bookshop-us";
  if (host === "uk.bookshop.org") return "bookshop-uk";
  return null;
}

/** An Amazon product id: ten letters and digits (an ISBN-10 for print, B0… for Kindle). */
const ASIN = /^[A-Z0-9]{10}$/;

/** The ASIN in an Amazon product link (/dp/X, /gp/product/X, /…/dp/X/…), or null. */
export function asinOfAmazonUrl(url: string): string | null {
  if (!storefrontOfUrl(url)?.startsWith("amazon-")) return null;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const m = /\/(?:dp|gp\/product|gp\/aw\/d|exec\/obidos\/asin)\/([A-Za-z0-9]{10})(?:[/?]|$)/.exec(path);
  const asin = m?.[1]?.toUpperCase();
  return asin && ASIN.test(asin) ? asin : null;
}

/** The product page for `asin` on an Amazon marketplace. */
export function amazonUrlFor(storefront: Storefront, asin: string): string | null {
  const host = (STOREFRONTS[storefront] as StorefrontInfo).amazonHost;
  return host && ASIN.test(asin) ? `https://${host}/dp/${asin}` : null;
}

/** Whether a store serves readers of `group` specifically (a local store), not everyone. */
export function servesGroup(storefront: string | null, group: CountryGroup): boolean {
  if (!group || !storefront || !isStorefront(storefront)) return false;
  const serves = (STOREFRONTS[storefront] as StorefrontInfo).serves;
  return serves !== "*" && serves.includes(group);
}

/**
 * Whether the first store can differ by group: only when a store after the author's first serves
 * some groups specifically (the first is everyone's fallback, global stores never win on country).
 */
export function firstStoreDiffers(links: readonly { storefront: string | null }[]): boolean {
  return links.slice(1).some((l) => {
    const s = l.storefront;
    return s !== null && isStorefront(s) && (STOREFRONTS[s] as StorefrontInfo).serves !== "*";
  });
}

/**
 * The reader's first store among `links` (in the author's order). When the author's first store
 * is an Amazon, the author sells on Amazon first: the reader's own Amazon marketplace comes first
 * when the author has it (a US reader gets Amazon.com, not Barnes & Noble listed before it).
 * Otherwise the first link that serves the reader's group, else the author's first. Returns its
 * index, or -1 for no links.
 */
export function firstStoreIndex(links: readonly { storefront: string | null }[], group: CountryGroup): number {
  if (links.length === 0) return -1;
  if (links[0]?.storefront?.startsWith("amazon-")) {
    const ownAmazon = links.findIndex((l) => l.storefront?.startsWith("amazon-") && servesGroup(l.storefront, group));
    if (ownAmazon >= 0) return ownAmazon;
  }
  const local = links.findIndex((l) => servesGroup(l.storefront, group));
  return Math.max(local, 0);
}
