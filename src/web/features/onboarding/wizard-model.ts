// The wizard's values and the checks each step runs before Next, with the spec's messages.
// Kept free of React so the rules can be tested on their own.
import { CURRENCIES, type Currency, type DomainOption, TIERS, type Tier } from "../../../shared/enums.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, MONTHLY_PRICE_MINOR, TRIAL_DAYS } from "../../../shared/plans.ts";
import { normaliseSubdomain } from "../../../shared/reserved-subdomains.ts";
import {
  INVALID_DOMAIN_MESSAGE,
  isValidDomain,
  normaliseDomain,
  ONBOARDING_MESSAGES,
  SUBDOMAIN_LENGTH_MESSAGE,
  SUBDOMAIN_MAX,
  SUBDOMAIN_MIN,
} from "../../../shared/schemas/onboarding.ts";
import { emailSchema } from "../../../shared/schemas/text.ts";

export type Step = 1 | 2 | 3;
export const STEPS: { step: Step; title: string; label: string }[] = [
  { step: 1, title: "Tell us about yourself", label: "About you" },
  { step: 2, title: "Choose your website details", label: "Your website" },
  { step: 3, title: "Choose your plan", label: "Your plan" },
];

export type WizardValues = {
  name: string;
  email: string;
  bio: string;
  genre: string;
  websiteName: string;
  subdomain: string;
  domainOption: DomainOption;
  ownDomain: string;
  /** null only when the link that opened the wizard named a plan that does not exist. */
  tier: Tier | null;
  currency: Currency;
};

/** The availability indicator's states; an error counts as not available. */
export type Availability = "unchecked" | "checking" | "available" | "taken" | "error";
export type AvailabilityReason = "too_short" | "too_long" | "reserved" | "taken";
export type AvailabilityResult = { subdomain: string; state: Availability; reason?: AvailabilityReason | undefined };

export type Issue = { message: string; field?: keyof WizardValues | undefined };

/** Step 1 prefilled from the account; tier and currency may come from the pricing page's link. */
export function initialValues(user: { name: string; email: string }, params: URLSearchParams): WizardValues {
  const tierParam = params.get("tier");
  const currencyParam = params.get("currency")?.toUpperCase() ?? null;
  return {
    name: user.name ?? "",
    email: user.email ?? "",
    bio: "",
    genre: "",
    websiteName: "",
    subdomain: "",
    domainOption: params.get("domain") === "custom" ? "custom" : "free",
    ownDomain: "",
    tier: tierParam === null ? "mini" : (TIERS as readonly string[]).includes(tierParam) ? (tierParam as Tier) : null,
    currency: (CURRENCIES as readonly string[]).includes(currencyParam ?? "") ? (currencyParam as Currency) : "GBP",
  };
}

/** What the subdomain field holds: lower-cased letters and digits only, at most 63 of them. */
export function cleanSubdomain(raw: string): string {
  return normaliseSubdomain(raw).slice(0, SUBDOMAIN_MAX);
}

export function validateAbout(v: WizardValues): Issue | null {
  if (!v.name.trim()) return { message: ONBOARDING_MESSAGES.required, field: "name" };
  if (!v.email.trim()) return { message: ONBOARDING_MESSAGES.required, field: "email" };
  const email = emailSchema.safeParse(v.email);
  if (!email.success)
    return { message: email.error.issues[0]?.message ?? "Please enter a valid email address", field: "email" };
  return null;
}

export function validateWebsite(v: WizardValues, availability: Availability): Issue | null {
  if (!v.websiteName.trim()) return { message: ONBOARDING_MESSAGES.required, field: "websiteName" };
  // Every site has its free address; an own domain is connected to it later (Settings → Domain).
  if (!v.subdomain) return { message: ONBOARDING_MESSAGES.subdomain, field: "subdomain" };
  if (v.subdomain.length < SUBDOMAIN_MIN) return { message: SUBDOMAIN_LENGTH_MESSAGE, field: "subdomain" };
  if (availability !== "available") return { message: ONBOARDING_MESSAGES.taken, field: "subdomain" };
  if (v.domainOption === "free") return null;
  const domain = normaliseDomain(v.ownDomain);
  if (!domain) return { message: ONBOARDING_MESSAGES.ownDomain, field: "ownDomain" };
  if (!isValidDomain(domain)) return { message: INVALID_DOMAIN_MESSAGE, field: "ownDomain" };
  return null;
}

export function validatePlan(v: WizardValues): Issue | null {
  if (!v.tier) return { message: ONBOARDING_MESSAGES.plan, field: "tier" };
  return null;
}

/** The step that holds a field the server complained about. */
export function stepForField(field: string | undefined): Step | null {
  if (field === "name" || field === "email" || field === "bio" || field === "genre") return 1;
  if (field === "websiteName" || field === "subdomain" || field === "domainOption" || field === "ownDomain") return 2;
  if (field === "tier" || field === "currency") return 3;
  return null;
}

/** The body of POST /api/onboarding/complete. */
export function toCompleteBody(v: WizardValues) {
  // The plan step's check runs first; a body without a plan would only earn a 400.
  if (!v.tier) throw new Error("toCompleteBody: no plan chosen");
  return {
    name: v.name.trim(),
    email: v.email.trim(),
    websiteName: v.websiteName.trim(),
    domainOption: v.domainOption,
    subdomain: v.subdomain,
    ...(v.domainOption === "custom" ? { ownDomain: normaliseDomain(v.ownDomain) } : {}),
    tier: v.tier,
    currency: v.currency,
    ...(v.bio.trim() ? { bio: v.bio.trim() } : {}),
    ...(v.genre.trim() ? { genre: v.genre.trim() } : {}),
  };
}

/** Monthly total after the trial, in minor units: the plan plus the custom-domain add-on. */
export function monthlyTotalMinor(tier: Tier, currency: Currency, domainOption: DomainOption): number {
  return MONTHLY_PRICE_MINOR[tier][currency] + (domainOption === "custom" ? CUSTOM_DOMAIN_ADDON_MINOR[currency] : 0);
}

/** Day 15: the trial's 14 days start today. */
export function firstPaymentDate(now = new Date()): Date {
  return new Date(now.getTime() + TRIAL_DAYS * 24 * 60 * 60 * 1000);
}
