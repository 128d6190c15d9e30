// The billing provider behind one interface: Stripe when keys are configured, otherwise a
// sandbox that takes no money and says so on every page.
import type { Currency, Tier } from "../../../shared/enums.ts";
import { CURRENCIES } from "../../../shared/enums.ts";
import { isTier } from "../../../shared/plans.ts";
import type { Env } from "../../env.ts";
import { type BillingProvider, WebhookSignatureError } from "./provider-types.ts";

export {
  ADDON_PRODUCT,
  type BillingEvent,
  type BillingProvider,
  type CheckoutRequest,
  type SubscriptionSnapshot,
  WebhookSignatureError,
} from "./provider-types.ts";

// ---------------------------------------------------------------------------------------------
// Sandbox: checkout and portal are pages on the app host; the session id carries the choice.

export type SandboxSession = { userId: string; tier: Tier; currency: Currency; customDomain: boolean };

export function encodeSandboxSession(s: SandboxSession): string {
  const nonce = Math.random().toString(36).slice(2, 10);
  return `sbx_${Buffer.from(JSON.stringify({ ...s, nonce })).toString("base64url")}`;
}

export function decodeSandboxSession(id: string): SandboxSession | null {
  if (!id.startsWith("sbx_") || id.length > 1000) return null;
  try {
    const v = JSON.parse(Buffer.from(id.slice(4), "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof v.userId !== "string" || !isTier(v.tier)) return null;
    if (!(CURRENCIES as readonly unknown[]).includes(v.currency)) return null;
    return { userId: v.userId, tier: v.tier, currency: v.currency as Currency, customDomain: v.customDomain === true };
  } catch {
    return null;
  }
}

export function sandboxProvider(appOrigin: string): BillingProvider {
  return {
    name: "sandbox",
    async createCheckout(input) {
      const session = encodeSandboxSession(input);
      return { url: `${appOrigin}/billing/sandbox/checkout?session=${encodeURIComponent(session)}` };
    },
    async createPortal() {
      return { url: `${appOrigin}/billing/sandbox/portal` };
    },
    // The sandbox's only record is our own table, which the billing service updates.
    async changePlan() {},
    async setCustomDomainAddon() {},
    async cancel() {},
    async cancelNow() {},
    async reactivate() {},
    async parseWebhook() {
      throw new WebhookSignatureError("Stripe webhooks are not configured (sandbox billing)");
    },
  };
}

/**
 * A provider whose implementation is imported on its first call: Stripe's SDK is a few MB of
 * heap that a process in sandbox mode, or one that never bills, does not need (ADR 037).
 */
function lazyProvider(name: BillingProvider["name"], load: () => Promise<BillingProvider>): BillingProvider {
  let loaded: Promise<BillingProvider> | undefined;
  const get = () => {
    loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    });
    return loaded;
  };
  return {
    name,
    createCheckout: async (input) => (await get()).createCheckout(input),
    createPortal: async (input) => (await get()).createPortal(input),
    changePlan: async (input) => (await get()).changePlan(input),
    setCustomDomainAddon: async (input) => (await get()).setCustomDomainAddon(input),
    cancel: async (input) => (await get()).cancel(input),
    cancelNow: async (input) => (await get()).cancelNow(input),
    reactivate: async (input) => (await get()).reactivate(input),
    parseWebhook: async (rawBody, signature) => (await get()).parseWebhook(rawBody, signature),
  };
}

const stripeFor = (opts: Parameters<typeof import("./stripe-provider.ts").stripeProvider>[0]) =>
  lazyProvider("stripe", async () => (await import("./stripe-provider.ts")).stripeProvider(opts));

const cache = new WeakMap<Env, BillingProvider>();

/** Stripe when both keys are set, otherwise the sandbox. One instance per configuration. */
export function billingProviderFor(env: Env): BillingProvider {
  let p = cache.get(env);
  if (!p) {
    p =
      env.stripeSecretKey && env.stripeWebhookSecret
        ? stripeFor({ secretKey: env.stripeSecretKey, webhookSecret: env.stripeWebhookSecret, api: env.stripeApi })
        : sandboxProvider(env.appOrigin);
    cache.set(env, p);
  }
  return p;
}
