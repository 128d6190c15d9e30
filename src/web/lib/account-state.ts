// What the signed-in author has set up: read by the route guards, onboarding, the dashboard and
// the pricing page (GET /api/onboarding and GET /api/subscription/status).
import { useQuery } from "@tanstack/react-query";
import type { Currency, Tier } from "../../shared/enums.ts";
import { client, read } from "./api.ts";

export type { SubscriptionDetails } from "../../shared/schemas/billing.ts";
export type { Capacity } from "../../shared/schemas/book.ts";
export type { OnboardingState, WebsiteSummary } from "../../shared/schemas/onboarding.ts";

export const ONBOARDING_STATE_KEY = ["onboarding-state"] as const;
export const SUBSCRIPTION_KEY = ["subscription"] as const;
/** Under "books": any change to the catalogue refreshes it. */
export const CAPACITY_KEY = ["books", "capacity"] as const;

export const fetchOnboardingState = () => read(client.onboarding.$get());
export const fetchSubscription = () => read(client.subscription.status.$get());

/** The site's subdomain, for 'View on site' links; null until onboarding made a site. */
export function useSubdomain() {
  return useQuery({
    queryKey: ONBOARDING_STATE_KEY,
    queryFn: fetchOnboardingState,
    select: (d) => d.website?.subdomain || null,
  });
}

/** The plan's book limit and how much of it is used (the dashboard and Add Book read it). */
export function useCapacity() {
  return useQuery({
    queryKey: CAPACITY_KEY,
    queryFn: () => read(client.books.capacity.$get()),
    staleTime: 30_000,
  });
}

/** The payment step: Stripe Checkout or the sandbox's test-mode page. */
export const startCheckout = (tier: Tier, currency: Currency) =>
  read(client.billing.checkout.$post({ json: { tier, currency } }));

/** 'jane.bookplate.site' — the address without a scheme. */
export function siteHost(subdomain: string, sitesDomain: string): string {
  return `${subdomain}.${sitesDomain}`;
}

/** The site's URL on the same scheme as the app (http locally, https in production). */
export function siteUrl(host: string): string {
  const scheme = typeof window === "undefined" ? "https:" : window.location.protocol;
  return `${scheme}//${host}/`;
}

/** Read afresh on every visit: a book, a post, a bio or a setting saved elsewhere changes it. */
export const SITE_STATUS_KEY = ["site-status"] as const;

/** What readers see of the site, by the public renderer's own rule (ADR 052). */
export function fetchSiteStatus() {
  return read(client.site.status.$get());
}
