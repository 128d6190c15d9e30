// The one price table (design brief §4). Onboarding, pricing, checkout and admin revenue all
// read it; nothing else may state a price.
import type { Currency, Tier } from "./enums.ts";
import { TIERS } from "./enums.ts";

export type Plan = { tier: Tier; name: string; bookLimit: number; range: string; next: Tier | null };

export const PLANS: Record<Tier, Plan> = {
  mini: { tier: "mini", name: "Mini", bookLimit: 5, range: "1-5 books", next: "midi" },
  midi: { tier: "midi", name: "Midi", bookLimit: 10, range: "6-10 books", next: "maxi" },
  maxi: { tier: "maxi", name: "Maxi", bookLimit: 20, range: "11-20 books", next: "mega" },
  mega: { tier: "mega", name: "Mega", bookLimit: 50, range: "21-50 books", next: null },
};

/** Monthly price in minor units. */
export const MONTHLY_PRICE_MINOR: Record<Tier, Record<Currency, number>> = {
  mini: { GBP: 399, USD: 499, EUR: 499, CAD: 699, AUD: 799 },
  midi: { GBP: 599, USD: 799, EUR: 699, CAD: 1099, AUD: 1199 },
  maxi: { GBP: 799, USD: 999, EUR: 999, CAD: 1399, AUD: 1599 },
  mega: { GBP: 999, USD: 1299, EUR: 1199, CAD: 1799, AUD: 1999 },
};

/** The custom-domain add-on: 5.00 USD a month, and a stated equivalent in each currency. */
export const CUSTOM_DOMAIN_ADDON_MINOR: Record<Currency, number> = {
  GBP: 399,
  USD: 500,
  EUR: 499,
  CAD: 699,
  AUD: 799,
};

export const TRIAL_DAYS = 14;

export const CURRENCY_SYMBOLS: Record<Currency, string> = { GBP: "£", USD: "$", EUR: "€", CAD: "C$", AUD: "A$" };

export function bookLimit(tier: Tier): number {
  return PLANS[tier].bookLimit;
}

export function nextTier(tier: Tier): Tier | null {
  return PLANS[tier].next;
}

export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

/** '£3.99' — minor units to a display price with the currency's symbol. */
export function formatMoney(minor: number, currency: Currency): string {
  return `${CURRENCY_SYMBOLS[currency]}${(minor / 100).toFixed(2)}`;
}
