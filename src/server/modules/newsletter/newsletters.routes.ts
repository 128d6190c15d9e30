// Newsletters API (issue 32, ADR 066). The owner is always the signed-in user; a newsletter id
// that is not theirs (or not an id at all) answers 404 'Newsletter not found' on every endpoint,
// and nothing changes.
//
// GET    /api/newsletters              → 200 { newsletters: Newsletter[], sendingPaused }, newest first
// POST   /api/newsletters              newsletterCreateSchema → 201 { newsletter } (a draft)
// GET    /api/newsletters/:id          → 200 { newsletter }
// PATCH  /api/newsletters/:id          newsletterUpdateSchema → 200 { newsletter }; 409 once it went out
// DELETE /api/newsletters/:id          → 204; 409 while it goes out
// POST   /api/newsletters/preview      newsletterPreviewSchema → 200 { html }: the mail readers will get
// POST   /api/newsletters/:id/test     → 200 { sentTo } (to the author's own account address)
// POST   /api/newsletters/:id/send     { at? } → 200 { newsletter }: sending now, or scheduled;
//                                      400 a time past; 403 sending paused by staff (ADR 070);
//                                      409 gone out or no subscribers; 429 the day's cap
// POST   /api/newsletters/:id/cancel   → 200 { newsletter } (a scheduled one back to draft); 409 otherwise
// GET    /api/newsletters/:id/figures  → 200 { sent, accepted, bounced, unsubscribed, waiting, skipped }
import { z } from "zod";
import {
  newsletterCreateSchema,
  newsletterFiguresSchema,
  newsletterPreviewSchema,
  newsletterSchema,
  newsletterSendSchema,
  newsletterUpdateSchema,
} from "../../../shared/schemas/newsletter.ts";
import { collection } from "../../http/collection.ts";
import type { AppVars } from "../../http/context.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import * as newsletters from "./newsletters.service.ts";

const route = routes({ tags: ["Newsletters"] });
const one = json(z.object({ newsletter: newsletterSchema }), "The newsletter");

const newsletter = collection(route, "/newsletters", {
  one,
  notFound: newsletters.newsletterNotFound,
  list: {
    summary: "The author's newsletters, newest first",
    ok: {
      200: json(
        z.object({
          newsletters: z.array(newsletterSchema),
          /** Staff paused the account's sending (ADR 070): nothing goes until they resume it. */
          sendingPaused: z.boolean(),
        }),
        "The newsletters, and whether the account's sending is paused",
      ),
    },
  },
  create: { summary: "Write a newsletter (a draft)", body: newsletterCreateSchema },
  read: { summary: "One newsletter" },
  update: {
    summary: "Change a draft or scheduled newsletter (only the fields sent)",
    body: newsletterUpdateSchema,
    errors: [409],
  },
  remove: { summary: "Delete a newsletter (not while it goes out)", errors: [409] },
});
const preview = route.post("/newsletters/preview", {
  summary: "The editor's words as readers will get them (the mail's HTML)",
  body: newsletterPreviewSchema,
  ok: { 200: json(z.object({ html: z.string() }), "The mail's HTML part") },
});
const test = route.post("/newsletters/{id}/test", {
  summary: "Send the newsletter to the author's own address",
  ok: { 200: json(z.object({ sentTo: z.string() }), "Queued to the author") },
  errors: [502],
});
const send = route.post("/newsletters/{id}/send", {
  summary: "Send to every confirmed subscriber now, or at a time to come",
  description:
    "Without `at` every confirmed subscriber's copy is queued now; with `at` (a time to come) it is scheduled. " +
    "Refused with nothing queued: a time past (400), a newsletter going out or gone, no confirmed subscribers (409), " +
    "the account's newsletter mails for 24 hours (429, `sending_limit_reached`), " +
    "the account's sending paused by staff (403).",
  body: newsletterSendSchema,
  ok: { 200: one },
  errors: [403, 409, 429],
});
const cancel = route.post("/newsletters/{id}/cancel", {
  summary: "Take a scheduled newsletter back to draft",
  ok: { 200: one },
  errors: [409],
});
const figures = route.get("/newsletters/{id}/figures", {
  summary: "How the newsletter went: sent, accepted, bounced, unsubscribed since",
  ok: { 200: json(newsletterFiguresSchema, "The figures") },
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
    .openapi(
      ...answer(newsletter.list, async (c, me) => ({
        newsletters: await newsletters.listNewsletters(db(c), me.id),
        sendingPaused: await newsletters.sendingPaused(db(c), me.id),
      })),
    )
    .openapi(
      ...answer(newsletter.create, async (c, me) => ({
        newsletter: await newsletters.createNewsletter(db(c), me.id, c.req.valid("json")),
      })),
    )
    .openapi(
      ...answer(preview, async (c, me) => ({
        html: await newsletters.previewNewsletter(deps(c), me.id, c.req.valid("json")),
      })),
    )
    .openapi(
      ...answer(newsletter.read, async (c, me) => ({
        newsletter: await newsletters.getNewsletter(db(c), me.id, newsletter.id(c)),
      })),
    )
    .openapi(
      ...answer(newsletter.update, async (c, me) => ({
        newsletter: await newsletters.updateNewsletter(db(c), me.id, newsletter.id(c), c.req.valid("json")),
      })),
    )
    .openapi(...answer(newsletter.remove, (c, me) => newsletters.deleteNewsletter(db(c), me.id, newsletter.id(c))))
    .openapi(
      ...answer(test, async (c, me) => ({
        sentTo: await newsletters.sendTestNewsletter(deps(c), me.id, newsletter.id(c)),
      })),
    )
    .openapi(
      ...answer(send, async (c, me) => ({
        newsletter: await newsletters.sendNewsletter(deps(c), me.id, newsletter.id(c), c.req.valid("json")),
      })),
    )
    .openapi(
      ...answer(cancel, async (c, me) => ({
        newsletter: await newsletters.cancelNewsletter(db(c), me.id, newsletter.id(c)),
      })),
    )
    .openapi(...answer(figures, (c, me) => newsletters.newsletterFigures(db(c), me.id, newsletter.id(c))));
}
