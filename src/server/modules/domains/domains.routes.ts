// The author's custom domain (ADR 022).
//
// GET    /api/domain         → the domain, its status, the DNS records to add, the live address
// PUT    /api/domain         { domain } → start (or change) verification
// POST   /api/domain/verify  → check the records now: { state, check }
// DELETE /api/domain         → remove it: the site is back on its subdomain
import { z } from "zod";
import { domainCheckSchema, domainInputSchema, domainStateSchema } from "../../../shared/schemas/domain.ts";
import { apiRoute, apiRouter, errors, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import * as domains from "./domains.service.ts";

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
  responses: { 200: state, ...errors(400, 404, 409, 415) },
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
  responses: { 200: state, ...errors(404, 409) },
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
      return c.json(await domains.startDomain(database.db, env, me.id, c.req.valid("json").domain), 200);
    })
    .openapi(verify, async (c) => {
      const me = await requireUser(c);
      const { database, env, dns } = c.get("deps");
      return c.json(await domains.verifyDomain(database.db, env, dns, me.id), 200);
    })
    .openapi(remove, async (c) => {
      const me = await requireUser(c);
      const { database, env } = c.get("deps");
      return c.json(await domains.removeDomain(database.db, env, me.id), 200);
    });
}
