// What the signed-in author has set up: read by the route guards, onboarding, the dashboard and
// the pricing page (GET /api/onboarding and GET /api/subscription/status).
import type { Currency, Tier } from "../../shared/enums.ts";
import { client, read } from "./api.ts";

export type { SubscriptionDetails } from "../../shared/schemas/billing.ts";
export type { OnboardingState, WebsiteSummary } from "../../shared/schemas/onboarding.ts";

export const ONBOARDING_STATE_KEY = ["onboarding-state"] as const;
export const SUBSCRIPTION_KEY = ["subscription"] as const;

export const fetchOnboardingState = () => read(client.onboarding.$get());
export const fetchSubscription = () => read(client.subscription.status.$get());

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
