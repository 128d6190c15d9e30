// Newsletters API (issue 32, ADR 066). The owner is always the signed-in user; a newsletter id
// that is not theirs (or not an id at all) answers 404 'Newsletter not found' on every endpoint,
// and nothing changes.
//
// GET    /api/newsletters              → 200 { newsletters: Newsletter[] }, newest first
// POST   /api/newsletters              newsletterCreateSchema → 201 { newsletter } (a draft)
// GET    /api/newsletters/:id          → 200 { newsletter }
// PATCH  /api/newsletters/:id          newsletterUpdateSchema → 200 { newsletter }; 409 once it went out
// DELETE /api/newsletters/:id          → 204; 409 while it goes out
// POST   /api/newsletters/:id/test     → 200 { sentTo } (to the author's own account address)
// POST   /api/newsletters/:id/send     { at? } → 200 { newsletter }: sending now, or scheduled;
//                                      400 a time past; 409 gone out or no subscribers; 429 the day's cap
// POST   /api/newsletters/:id/cancel   → 200 { newsletter } (a scheduled one back to draft); 409 otherwise
// GET    /api/newsletters/:id/figures  → 200 { sent, accepted, bounced, unsubscribed, waiting, skipped }
import { z } from "zod";
import {
  newsletterCreateSchema,
  newsletterFiguresSchema,
  newsletterSchema,
  newsletterSendSchema,
  newsletterUpdateSchema,
} from "../../../shared/schemas/newsletter.ts";
import type { AppVars } from "../../http/context.ts";
import { idParam } from "../../http/ids.ts";
import { apiRoute, apiRouter, errors, idParams, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import * as newsletters from "./newsletters.service.ts";

/** A path id that cannot be a newsletter's is not found. */
const newsletterId = (raw: string | undefined) => idParam(raw, newsletters.newsletterNotFound);

const tags = ["Newsletters"];
const one = json(z.object({ newsletter: newsletterSchema }), "The newsletter");

const list = apiRoute({
  method: "get",
  path: "/newsletters",
  tags,
  summary: "The author's newsletters, newest first",
  responses: { 200: json(z.object({ newsletters: z.array(newsletterSchema) }), "The newsletters") },
});
const create = apiRoute({
  method: "post",
  path: "/newsletters",
  tags,
  summary: "Write a newsletter (a draft)",
  request: { body: jsonBody(newsletterCreateSchema) },
  responses: { 201: one, ...errors(400, 415) },
});
const read = apiRoute({
  method: "get",
  path: "/newsletters/{id}",
  tags,
  summary: "One newsletter",
  request: { params: idParams },
  responses: { 200: one, ...errors(404) },
});
const update = apiRoute({
  method: "patch",
  path: "/newsletters/{id}",
  tags,
  summary: "Change a draft or scheduled newsletter (only the fields sent)",
  request: { params: idParams, body: jsonBody(newsletterUpdateSchema) },
  responses: { 200: one, ...errors(400, 404, 409, 415) },
});
const remove = apiRoute({
  method: "delete",
  path: "/newsletters/{id}",
  tags,
  summary: "Delete a newsletter (not while it goes out)",
  request: { params: idParams },
  responses: { 204: { description: "Deleted" }, ...errors(404, 409) },
});
const test = apiRoute({
  method: "post",
  path: "/newsletters/{id}/test",
  tags,
  summary: "Send the newsletter to the author's own address",
  request: { params: idParams },
  responses: { 200: json(z.object({ sentTo: z.string() }), "Queued to the author"), ...errors(404, 502) },
});
const send = apiRoute({
  method: "post",
  path: "/newsletters/{id}/send",
  tags,
  summary: "Send to every confirmed subscriber now, or at a time to come",
  description:
    "Without `at` every confirmed subscriber's copy is queued now; with `at` (a time to come) it is scheduled. " +
    "Refused with nothing queued: a time past (400), a newsletter going out or gone, no confirmed subscribers (409), " +
    "the account's newsletter mails for 24 hours (429, `sending_limit_reached`).",
  request: { params: idParams, body: jsonBody(newsletterSendSchema) },
  responses: { 200: one, ...errors(400, 404, 409, 415, 429) },
});
const cancel = apiRoute({
  method: "post",
  path: "/newsletters/{id}/cancel",
  tags,
  summary: "Take a scheduled newsletter back to draft",
  request: { params: idParams },
  responses: { 200: one, ...errors(404, 409) },
});
const figures = apiRoute({
  method: "get",
  path: "/newsletters/{id}/figures",
  tags,
  summary: "How the newsletter went: sent, accepted, bounced, unsubscribed since",
  request: { params: idParams },
  responses: { 200: json(newsletterFiguresSchema, "The figures"), ...errors(404) },
});

/** What the service needs from the request's dependencies. */
function deps(c: { get(k: "deps"): AppVars["Variables"]["deps"] }): newsletters.NewsletterDeps {
  const { database, mailer, logger, env } = c.get("deps");
  return {
    db: database.db,
    mailer,
    logger,
    site: { protocol: new URL(env.appOrigin).protocol, sitesDomain: env.sitesDomain },
    dailyCap: env.newsletter.dailyCap,
  };
}

export function newslettersRoutes() {
  return apiRouter()
    .openapi(list, async (c) => {
      const me = await requireUser(c);
      return c.json({ newsletters: await newsletters.listNewsletters(c.get("deps").database.db, me.id) }, 200);
    })
    .openapi(create, async (c) => {
      const me = await requireUser(c);
      const newsletter = await newsletters.createNewsletter(c.get("deps").database.db, me.id, c.req.valid("json"));
      return c.json({ newsletter }, 201);
    })
    .openapi(read, async (c) => {
      const me = await requireUser(c);
      const id = newsletterId(c.req.valid("param").id);
      return c.json({ newsletter: await newsletters.getNewsletter(c.get("deps").database.db, me.id, id) }, 200);
    })
    .openapi(update, async (c) => {
      const me = await requireUser(c);
      const id = newsletterId(c.req.valid("param").id);
      const db = c.get("deps").database.db;
      return c.json({ newsletter: await newsletters.updateNewsletter(db, me.id, id, c.req.valid("json")) }, 200);
    })
    .openapi(remove, async (c) => {
      const me = await requireUser(c);
      await newsletters.deleteNewsletter(c.get("deps").database.db, me.id, newsletterId(c.req.valid("param").id));
      return c.body(null, 204);
    })
    .openapi(test, async (c) => {
      const me = await requireUser(c);
      const id = newsletterId(c.req.valid("param").id);
      return c.json({ sentTo: await newsletters.sendTestNewsletter(deps(c), me.id, id) }, 200);
    })
    .openapi(send, async (c) => {
      const me = await requireUser(c);
      const id = newsletterId(c.req.valid("param").id);
      return c.json({ newsletter: await newsletters.sendNewsletter(deps(c), me.id, id, c.req.valid("json")) }, 200);
    })
    .openapi(cancel, async (c) => {
      const me = await requireUser(c);
      const id = newsletterId(c.req.valid("param").id);
      return c.json({ newsletter: await newsletters.cancelNewsletter(c.get("deps").database.db, me.id, id) }, 200);
    })
    .openapi(figures, async (c) => {
      const me = await requireUser(c);
      const id = newsletterId(c.req.valid("param").id);
      return c.json(await newsletters.newsletterFigures(c.get("deps").database.db, me.id, id), 200);
    });
}
