// Inputs of the billing endpoints.
import { z } from "zod";
import { CURRENCIES, TIERS } from "../enums.ts";

const tier = z.enum(TIERS, { error: `Plan must be one of ${TIERS.join(", ")}` });
const currency = z.enum(CURRENCIES, { error: `Currency must be one of ${CURRENCIES.join(", ")}` });

export const checkoutSchema = z.strictObject({ tier, currency: currency.default("GBP") });
export const changePlanSchema = z.strictObject({ tier });
/** cancel, reactivate and portal take no input; an empty object (or no body) is all they accept. */
export const emptySchema = z.strictObject({});

export type CheckoutInput = z.infer<typeof checkoutSchema>;
