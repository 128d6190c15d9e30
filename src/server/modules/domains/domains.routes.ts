// The author's custom domain (ADR 022).
//
// GET    /api/domain         → the domain, its status, the DNS records to add, the live address
// PUT    /api/domain         { domain } → start (or change) verification
// POST   /api/domain/verify  → check the records now: { state, check }
// DELETE /api/domain         → remove it: the site is back on its subdomain
import { z } from "zod";
import { domainCheckSchema, domainInputSchema, domainStateSchema } from "../../../shared/schemas/domain.ts";
import { HttpError } from "../../http/errors.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { DomainError } from "../../lib/domain-error.ts";
import { setCustomDomainAddon } from "../billing/billing.service.ts";
import { billingProviderFor } from "../billing/provider.ts";
import * as domains from "./domains.service.ts";

/** A provider failure is a 502 the author can retry, not a 500. */
async function withProvider(work: () => Promise<void>) {
  try {
    await work();
  } catch (err) {
    if (err instanceof DomainError) throw err; // the service's own refusal
    throw new HttpError(502, "We could not update your subscription with the payment provider. Please try again.");
  }
}

// Every route answers 404 'Set up your website first' before onboarding made the site.
const route = routes({ tags: ["Domain"], errors: [404] });
const state = json(domainStateSchema, "The custom domain as it stands");

const read = route.get("/domain", {
  summary: "The custom domain, its DNS records and the site's live address",
  ok: { 200: state },
});
const start = route.put("/domain", {
  summary: "Add or change the custom domain (verification starts)",
  body: domainInputSchema,
  ok: { 200: state },
  errors: [409, 502],
});
const verify = route.post("/domain/verify", {
  summary: "Check the domain's DNS records now",
  ok: { 200: json(z.object({ state: domainStateSchema, check: domainCheckSchema }), "What the check found") },
  errors: [409, 429],
});
const remove = route.delete("/domain", { summary: "Remove the custom domain", ok: { 200: state }, errors: [409, 502] });

export function domainRoutes() {
  return apiRouter()
    .openapi(...answer(read, (c, me) => domains.getDomainState(db(c), c.get("deps").env, me.id)))
    .openapi(
      ...answer(start, async (c, me) => {
        const { database, env } = c.get("deps");
        const { domain } = c.req.valid("json");
        await domains.assertClaimable(database.db, env, me.id, domain);
        // The add-on first: if the provider refuses, nothing has changed.
        await withProvider(() => setCustomDomainAddon(database.db, billingProviderFor(env), me.id, true));
        return domains.startDomain(database.db, env, me.id, domain);
      }),
    )
    .openapi(
      ...answer(verify, (c, me) => {
        const { database, env, dns } = c.get("deps");
        return domains.verifyDomain(database.db, env, dns, me.id);
      }),
    )
    .openapi(
      ...answer(remove, async (c, me) => {
        const { database, env } = c.get("deps");
        const state = await domains.removeDomain(database.db, env, me.id);
        await withProvider(() => setCustomDomainAddon(database.db, billingProviderFor(env), me.id, false));
        return state;
      }),
    );
}
