// What every billing provider is: the interface, its inputs and the events it reports. Apart
// from provider.ts so that the Stripe implementation, loaded on first use, imports no cycle.
import type { Currency, Tier } from "../../../shared/enums.ts";

export type CheckoutRequest = {
  userId: string;
  email: string;
  tier: Tier;
  currency: Currency;
  customDomain: boolean;
  successUrl: string;
  cancelUrl: string;
  /** Trial days still owed; 0 for a returning subscriber who already used the trial. */
  trialDays?: number;
  customerId?: string | null;
};

/** The provider's view of a subscription, fetched fresh so event order never matters. */
export type SubscriptionSnapshot = {
  id: string;
  customerId: string | null;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  trialEnd: Date | null;
  userId: string | null;
  tier: Tier | null;
  currency: Currency | null;
  customDomain: boolean | null;
};

export type BillingEvent = { id: string; type: string; created: Date } & (
  | {
      kind: "checkout_completed";
      userId: string | null;
      customerId: string | null;
      subscription: SubscriptionSnapshot | null;
    }
  | { kind: "subscription_changed"; subscription: SubscriptionSnapshot }
  | {
      kind: "invoice_paid";
      invoiceId: string;
      subscriptionId: string | null;
      customerId: string | null;
      currency: string;
      amountMinor: number;
      /** The subscription as Stripe holds it now (null: none, or Stripe no longer has it). */
      subscription: SubscriptionSnapshot | null;
    }
  | { kind: "payment_failed"; subscriptionId: string | null; subscription: SubscriptionSnapshot | null }
  | { kind: "ignored" }
);

export class WebhookSignatureError extends Error {}

export interface BillingProvider {
  readonly name: "sandbox" | "stripe";
  createCheckout(input: CheckoutRequest): Promise<{ url: string }>;
  createPortal(input: { userId: string; customerId: string | null; returnUrl: string }): Promise<{ url: string }>;
  changePlan(input: { subscriptionId: string; tier: Tier; currency: Currency; customDomain: boolean }): Promise<void>;
  /** Adds or removes the custom-domain add-on, prorated by the provider. */
  setCustomDomainAddon(input: { subscriptionId: string; currency: Currency; on: boolean }): Promise<void>;
  cancel(input: { subscriptionId: string }): Promise<void>;
  /** Ends the subscription now, no further invoices (the account is being deleted). */
  cancelNow(input: { subscriptionId: string }): Promise<void>;
  reactivate(input: { subscriptionId: string }): Promise<void>;
  /** Verifies the signature (WebhookSignatureError when wrong) and normalises the event. */
  parseWebhook(rawBody: string, signature: string | undefined): Promise<BillingEvent[]>;
}

/** The custom-domain add-on's Stripe product: one, with a fixed id, made on first use. */
export const ADDON_PRODUCT = "bookplate_custom_domain";
