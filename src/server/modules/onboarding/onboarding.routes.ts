// Onboarding API (the 3-step wizard).
//
// GET  /api/onboarding/subdomain-availability?subdomain=Jane-Author
//        public. → 200 { subdomain: "janeauthor", available: boolean, reason?: "too_short" | "too_long" | "reserved" | "taken" }
//        The subdomain is lower-cased and stripped of every non-alphanumeric character first.
//        429 { error } when one address asks too often.
// GET  /api/onboarding
//        signed in. → 200 { name, email, onboardingCompleted, sitesDomain, website } — prefill
//        step 1; redirect to /dashboard when onboardingCompleted. sitesDomain is where sites live
//        ({subdomain}.{sitesDomain}); website is null before onboarding, else { websiteName,
//        subdomain, domainOption, customDomain, customDomainVerified }. 401 when signed out.
// POST /api/onboarding/complete
//        signed in. Body { name, email, websiteName, subdomain?, domainOption: "free"|"custom",
//        ownDomain?, tier: "mini"|"midi"|"maxi"|"mega", currency?: "GBP"|"USD"|"EUR"|"CAD"|"AUD", bio?, genre? }
//        → 201 { checkoutUrl, website: { subdomain, customDomain, domainOption },
//                subscription: { tier, status: "trial", trialEndsAt },
//                domainVerification: { domain, token } | null }
//        Open checkoutUrl (card entry; the trial starts now, billing on day 15).
//        400 { error: { code, message, field } } with the spec's messages ('Please fill in all required
//        fields', 'Please choose a subdomain', 'Please enter your domain name', 'Please select a
//        plan'); 409 'This subdomain is already taken. Please choose another one.' (field
//        subdomain), or already onboarded; 502 when the payment provider failed after the site
//        was created — resume with POST /api/billing/checkout.
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  availabilitySchema,
  onboardingCompletedSchema,
  onboardingCompleteSchema,
  onboardingStateSchema,
  subdomainQuerySchema,
} from "../../../shared/schemas/onboarding.ts";
import type { AppVars } from "../../http/context.ts";
import { HttpError } from "../../http/errors.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { clientAddress } from "../../lib/client-address.ts";
import { startCheckout } from "../billing/billing.service.ts";
import { billingProviderFor } from "../billing/provider.ts";
import { checkSubdomain, completeOnboarding, getOnboardingState } from "./onboarding.service.ts";

const route = routes({ tags: ["Onboarding"] });

export function onboardingRoutes() {
  // A light per-address allowance for the public availability check.
  const limited: MiddlewareHandler<AppVars> = async (c, next) => {
    const deps = c.get("deps");
    if (!(await deps.limits.availability.take(clientAddress(c, deps.env.trustProxy) ?? "unknown"))) {
      throw new HttpError(429, "Too many availability checks. Please wait a minute and try again.");
    }
    await next();
  };

  const availability = route.get("/onboarding/subdomain-availability", {
    summary: "Whether a subdomain can be had (lower-cased, non-alphanumerics removed first)",
    public: true,
    middleware: [limited],
    // Not strict: a cache-busting parameter is no reason to refuse.
    query: z.object(subdomainQuerySchema.shape),
    ok: { 200: json(availabilitySchema, "The cleaned subdomain and whether it is free") },
    errors: [429],
  });
  const state = route.get("/onboarding", {
    summary: "What the signed-in person has set up (prefills the wizard; the dashboard's site address)",
    ok: { 200: json(onboardingStateSchema, "The state") },
  });
  const complete = route.post("/onboarding/complete", {
    summary: "Create the profile, website and trial, then start checkout",
    body: onboardingCompleteSchema,
    ok: { 201: json(onboardingCompletedSchema, "Set up: open checkoutUrl") },
    errors: [409, 502],
  });

  return apiRouter()
    .openapi(availability, async (c) => {
      const { database } = c.get("deps");
      return c.json(await checkSubdomain(database.db, c.req.valid("query").subdomain), 200);
    })
    .openapi(
      ...answer(state, async (c, me) => ({
        ...(await getOnboardingState(db(c), me.id)),
        sitesDomain: c.get("deps").env.sitesDomain,
      })),
    )
    .openapi(
      ...answer(complete, async (c, me) => {
        const input = c.req.valid("json");
        const { database, env, logger } = c.get("deps");
        const done = await completeOnboarding(database.db, me.id, input);
        let checkoutUrl: string;
        try {
          ({ url: checkoutUrl } = await startCheckout(database.db, billingProviderFor(env), env.appOrigin, me, {
            tier: input.tier,
            currency: input.currency,
            customDomain: input.domainOption === "custom",
          }));
        } catch (err) {
          logger.error({ err, userId: me.id }, "checkout after onboarding failed");
          throw new HttpError(502, "Your website is ready, but we could not start the payment step. Please try again.");
        }
        return {
          checkoutUrl,
          website: {
            subdomain: done.website.subdomain,
            customDomain: done.website.customDomain,
            domainOption: done.website.domainOption,
          },
          subscription: {
            tier: done.subscription.tier as (typeof input)["tier"],
            status: done.subscription.status,
            trialEndsAt: done.subscription.trialEndsAt?.toISOString() ?? null,
          },
          domainVerification: done.verification,
        };
      }),
    );
}
