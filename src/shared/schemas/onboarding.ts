// Inputs of the onboarding wizard (server checks; the wizard uses the same messages).
import { z } from "zod";
import { CURRENCIES, DOMAIN_OPTIONS, TIERS } from "../enums.ts";
import { normaliseSubdomain } from "../reserved-subdomains.ts";
import { namedObject } from "./fragments.ts";
import { plainText } from "./text.ts";

export const ONBOARDING_MESSAGES = {
  required: "Please fill in all required fields",
  subdomain: "Please choose a subdomain",
  taken: "This subdomain is already taken. Please choose another one.",
  ownDomain: "Please enter your domain name",
  plan: "Please select a plan",
} as const;

export const SUBDOMAIN_MIN = 3;
export const SUBDOMAIN_MAX = 63;
export const SUBDOMAIN_LENGTH_MESSAGE = `Your subdomain must be ${SUBDOMAIN_MIN} to ${SUBDOMAIN_MAX} letters or digits`;

const DOMAIN = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

export const INVALID_DOMAIN_MESSAGE = "Please enter a valid domain name, like janeauthor.com";

/** For an already normalised domain (see normaliseDomain). */
export function isValidDomain(domain: string): boolean {
  return DOMAIN.test(domain);
}

/** 'https://www.JaneAuthor.com/' → 'www.janeauthor.com'. */
export function normaliseDomain(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\/+$/, "")
    .replace(/\.$/, "");
}

export const subdomainQuerySchema = z.strictObject({
  subdomain: z.string({ error: "subdomain is required" }).max(200, { error: "Subdomain is too long" }),
});

const requiredText = (max: number, label: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? "" : v),
    z
      .string({ error: `${label} must be text` })
      .trim()
      .min(1, { error: ONBOARDING_MESSAGES.required })
      .max(max, { error: `${label} must be at most ${max} characters` }),
  );

export const onboardingCompleteSchema = z
  .strictObject({
    name: requiredText(100, "Full Name"),
    email: z.preprocess(
      (v) => (v === undefined || v === null ? "" : v),
      z
        .string({ error: "Email must be text" })
        .trim()
        .toLowerCase()
        .min(1, { error: ONBOARDING_MESSAGES.required })
        .max(254, { error: "Email must be at most 254 characters" })
        .pipe(z.email({ error: "Please enter a valid email address" })),
    ),
    websiteName: requiredText(100, "Website Name"),
    subdomain: z
      .string({ error: "Subdomain must be text" })
      .max(200, { error: "Subdomain is too long" })
      .transform(normaliseSubdomain)
      .optional(),
    domainOption: z.enum(DOMAIN_OPTIONS, { error: "Domain option must be 'free' or 'custom'" }).default("free"),
    ownDomain: z.string({ error: "Domain must be text" }).max(253, { error: "Domain is too long" }).optional(),
    tier: z.enum(TIERS, { error: ONBOARDING_MESSAGES.plan }),
    currency: z.enum(CURRENCIES, { error: `Currency must be one of ${CURRENCIES.join(", ")}` }).default("GBP"),
    bio: plainText(0, 5000, "Bio").optional(),
    genre: plainText(0, 60, "Genre").optional(),
  })
  .transform((v, ctx) => {
    // Every site has its free subdomain; an own domain is connected to it (ADR 022).
    const subdomain = v.subdomain ? v.subdomain : undefined;
    if (!subdomain) {
      ctx.addIssue({ code: "custom", path: ["subdomain"], message: ONBOARDING_MESSAGES.subdomain });
      return z.NEVER;
    }
    if (subdomain.length < SUBDOMAIN_MIN || subdomain.length > SUBDOMAIN_MAX) {
      ctx.addIssue({ code: "custom", path: ["subdomain"], message: SUBDOMAIN_LENGTH_MESSAGE });
      return z.NEVER;
    }
    if (v.domainOption === "free") return { ...v, subdomain, ownDomain: undefined };
    const domain = normaliseDomain(v.ownDomain ?? "");
    if (!domain) {
      ctx.addIssue({ code: "custom", path: ["ownDomain"], message: ONBOARDING_MESSAGES.ownDomain });
      return z.NEVER;
    }
    if (!DOMAIN.test(domain)) {
      ctx.addIssue({
        code: "custom",
        path: ["ownDomain"],
        message: INVALID_DOMAIN_MESSAGE,
      });
      return z.NEVER;
    }
    return { ...v, subdomain, ownDomain: domain };
  });

export type OnboardingCompleteInput = z.output<typeof onboardingCompleteSchema>;

// ---- Answers ----

export const AVAILABILITY_REASONS = ["too_short", "too_long", "reserved", "taken"] as const;
export const availabilitySchema = namedObject("SubdomainAvailability", {
  subdomain: z.string(),
  available: z.boolean(),
  reason: z.enum(AVAILABILITY_REASONS).optional(),
});
export type AvailabilityAnswer = z.infer<typeof availabilitySchema>;

export const websiteSummarySchema = z.object({
  websiteName: z.string(),
  subdomain: z.string().nullable(),
  domainOption: z.string(),
  /** The own domain claimed (pending) or connected; null when there is none. */
  customDomain: z.string().nullable(),
  customDomainVerified: z.boolean(),
});
export type WebsiteSummary = z.infer<typeof websiteSummarySchema>;

export const onboardingStateSchema = namedObject("OnboardingState", {
  name: z.string(),
  email: z.string(),
  onboardingCompleted: z.boolean(),
  /** Author sites live at {subdomain}.{sitesDomain}. */
  sitesDomain: z.string(),
  website: websiteSummarySchema.nullable(),
});
export type OnboardingState = z.infer<typeof onboardingStateSchema>;

export const onboardingCompletedSchema = namedObject("OnboardingCompleted", {
  /** Where the author enters their card (the site is public once done). */
  checkoutUrl: z.string(),
  website: z.object({
    subdomain: z.string().nullable(),
    customDomain: z.string().nullable(),
    domainOption: z.string(),
  }),
  subscription: z.object({ tier: z.enum(TIERS), status: z.string(), trialEndsAt: z.string().nullable() }),
  domainVerification: z.object({ domain: z.string(), token: z.string() }).nullable(),
});
export type OnboardingCompleted = z.infer<typeof onboardingCompletedSchema>;
