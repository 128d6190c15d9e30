// Inputs of the billing endpoints.
import { z } from "zod";
import { CURRENCIES, TIERS } from "../enums.ts";

const tier = z.enum(TIERS, { error: `Plan must be one of ${TIERS.join(", ")}` });
const currency = z.enum(CURRENCIES, { error: `Currency must be one of ${CURRENCIES.join(", ")}` });

export const checkoutSchema = z.strictObject({ tier, currency: currency.default("GBP") });
export const changePlanSchema = z.strictObject({
  tier,
  /** A plan that shows fewer books than readers see now needs this, after the author was told how many. */
  confirmHiddenBooks: z.boolean({ error: "confirmHiddenBooks must be true or false" }).optional(),
});
/** cancel, reactivate and portal take no input; an empty object (or no body) is all they accept. */
export const emptySchema = z.strictObject({});

export type CheckoutInput = z.infer<typeof checkoutSchema>;
