// Inputs of the billing endpoints.
import { z } from "zod";
import { CURRENCIES, SUBSCRIPTION_STATUSES, TIERS } from "../enums.ts";
import { namedObject } from "./fragments.ts";

const tier = z.enum(TIERS, { error: `Plan must be one of ${TIERS.join(", ")}` });
const currency = z.enum(CURRENCIES, { error: `Currency must be one of ${CURRENCIES.join(", ")}` });

export const checkoutSchema = z.strictObject({ tier, currency: currency.default("GBP") });
export const changePlanSchema = z.strictObject({
  tier,
  /** A plan that shows fewer books than readers see now needs this, after the author was told how many. */
  confirmHiddenBooks: z.boolean({ error: "confirmHiddenBooks must be true or false" }).optional(),
  /**
   * Or, better: the books that stay on the site when the plan shows fewer than readers see now
   * (at most the new plan's limit); the others are hidden and kept. Ignored by a plan that hides
   * nothing. ADR 054.
   */
  keepVisible: z
    .array(z.uuid({ error: "Invalid id" }), { error: "keepVisible must be a list of book ids" })
    .max(50, { error: "Too many ids" })
    .refine((ids) => new Set(ids).size === ids.length, { error: "keepVisible must not repeat a book" })
    .optional(),
});
/** cancel, reactivate and portal take no input; an empty object (or no body) is all they accept. */
export const emptySchema = z.strictObject({});

export type CheckoutInput = z.infer<typeof checkoutSchema>;

// ---- Answers ----

/** The plan as the spec's check-subscription answers it. */
export const subscriptionViewSchema = namedObject("Subscription", {
  tier: z.enum(TIERS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  trialEndsAt: z.string().nullable(),
});
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>;

/** What the dashboard shows: the plan plus currency, period end and payment state. */
export const subscriptionDetailsSchema = subscriptionViewSchema
  .extend({
    currency: z.enum(CURRENCIES),
    /** Cancelled: the site stays live until then. Active: the next renewal. */
    currentPeriodEnd: z.string().nullable(),
    customDomainAddon: z.boolean(),
    /** Card details taken (a checkout completed); false until the author finishes the payment step. */
    checkoutCompleted: z.boolean(),
  })
  .meta({ id: "SubscriptionDetails" });
export type SubscriptionDetails = z.infer<typeof subscriptionDetailsSchema>;
