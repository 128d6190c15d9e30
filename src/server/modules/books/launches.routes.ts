// Launches, the author's side (issue 17). A book id that is not theirs answers 404.
//
// GET  /api/books/:id/release-alerts        → 200 { releaseDate, preorder, pending, confirmed, notified }
// POST /api/books/:id/release-alerts/test   → 200 { sentTo } (the release mail, to the author)
import { z } from "zod";
import { idParam } from "../../http/ids.ts";
import { apiRoute, apiRouter, errors, json } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { bookNotFound } from "./books.service.ts";
import { launchSummary, sendTestLaunchMail } from "./launches.service.ts";

const bookId = (raw: string | undefined) => idParam(raw, bookNotFound);

const tags = ["Books"];
const params = z.object({ id: z.string() });
const summarySchema = z
  .object({
    releaseDate: z.string().nullable(),
    /** The release date is still to come: readers see the countdown and the form. */
    preorder: z.boolean(),
    /** Signed up, not confirmed yet. */
    pending: z.number().int(),
    /** Confirmed, to be told on release day. */
    confirmed: z.number().int(),
    /** Already told. */
    notified: z.number().int(),
  })
  .meta({ id: "LaunchSummary" });

const summary = apiRoute({
  method: "get",
  path: "/books/{id}/release-alerts",
  tags,
  summary: "Readers waiting to be told the book is out",
  request: { params },
  responses: { 200: json(summarySchema, "The counts"), ...errors(404) },
});
const test = apiRoute({
  method: "post",
  path: "/books/{id}/release-alerts/test",
  tags,
  summary: "Send the release mail to the author's own address",
  request: { params },
  responses: { 200: json(z.object({ sentTo: z.string() }), "Sent"), ...errors(404, 502) },
});

export function launchRoutes() {
  return apiRouter()
    .openapi(summary, async (c) => {
      const me = await requireUser(c);
      return c.json(await launchSummary(c.get("deps").database.db, me.id, bookId(c.req.param("id"))), 200);
    })
    .openapi(test, async (c) => {
      const me = await requireUser(c);
      const { database, mailer, env } = c.get("deps");
      const site = { protocol: new URL(env.appOrigin).protocol, sitesDomain: env.sitesDomain };
      const sentTo = await sendTestLaunchMail({ db: database.db, mailer, site }, me.id, bookId(c.req.param("id")));
      return c.json({ sentTo }, 200);
    });
}
