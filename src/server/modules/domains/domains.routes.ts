// The author's custom domain (ADR 022).
//
// GET    /api/domain         → the domain, its status, the DNS records to add, the live address
// PUT    /api/domain         { domain } → start (or change) verification
// POST   /api/domain/verify  → check the records now: { state, check }
// DELETE /api/domain         → remove it: the site is back on its subdomain
import { z } from "zod";
import { domainCheckSchema, domainInputSchema, domainStateSchema } from "../../../shared/schemas/domain.ts";
import { HttpError } from "../../http/errors.ts";
import { apiRoute, apiRouter, errors, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
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

const tags = ["Domain"];
const state = json(domainStateSchema, "The custom domain as it stands");

const read = apiRoute({
  method: "get",
  path: "/domain",
  tags,
  summary: "The custom domain, its DNS records and the site's live address",
  responses: { 200: state, ...errors(404) },
});
const start = apiRoute({
  method: "put",
  path: "/domain",
  tags,
  summary: "Add or change the custom domain (verification starts)",
  request: { body: jsonBody(domainInputSchema) },
  responses: { 200: state, ...errors(400, 404, 409, 415, 502) },
});
const verify = apiRoute({
  method: "post",
  path: "/domain/verify",
  tags,
  summary: "Check the domain's DNS records now",
  responses: {
    200: json(z.object({ state: domainStateSchema, check: domainCheckSchema }), "What the check found"),
    ...errors(404, 409, 429),
  },
});
const remove = apiRoute({
  method: "delete",
  path: "/domain",
  tags,
  summary: "Remove the custom domain",
  responses: { 200: state, ...errors(404, 409, 502) },
});

export function domainRoutes() {
  return apiRouter()
    .openapi(read, async (c) => {
      const me = await requireUser(c);
      const { database, env } = c.get("deps");
      return c.json(await domains.getDomainState(database.db, env, me.id), 200);
    })
    .openapi(start, async (c) => {
      const me = await requireUser(c);
      const { database, env } = c.get("deps");
      const { domain } = c.req.valid("json");
      await domains.assertClaimable(database.db, env, me.id, domain);
      // The add-on first: if the provider refuses, nothing has changed.
      await withProvider(() => setCustomDomainAddon(database.db, billingProviderFor(env), me.id, true));
      return c.json(await domains.startDomain(database.db, env, me.id, domain), 200);
    })
    .openapi(verify, async (c) => {
      const me = await requireUser(c);
      const { database, env, dns } = c.get("deps");
      return c.json(await domains.verifyDomain(database.db, env, dns, me.id), 200);
    })
    .openapi(remove, async (c) => {
      const me = await requireUser(c);
      const { database, env } = c.get("deps");
      const state = await domains.removeDomain(database.db, env, me.id);
      await withProvider(() => setCustomDomainAddon(database.db, billingProviderFor(env), me.id, false));
      return c.json(state, 200);
    });
}
