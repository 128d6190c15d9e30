// An account's newsletter sending in the back office (issue 32, ADR 070).
//
// GET  /api/admin/users/:id/newsletter-sending  → 200 NewsletterSending (404 no such account)
// POST /api/admin/users/:id/newsletter-sending  { paused, reason } → 200 the same, after the change;
//                                               409 already so, or yourself; 403 a super admin's as admin
import { z } from "zod";
import { newsletterPauseSchema, newsletterSendingSchema } from "../../../shared/schemas/newsletter-sending.ts";
import { HttpError } from "../../http/errors.ts";
import { db } from "../../http/handlers.ts";
import { apiRouter, json } from "../../http/openapi.ts";
import { adminRoute, staffAnswer } from "./admin.routes.ts";
import * as sending from "./newsletter-sending.service.ts";

const params = z.object({ id: z.string().min(1).max(200) });
const userId = (c: { req: { param(name: "id"): string } }) => {
  const raw = c.req.param("id");
  if (!raw || raw.length > 200) throw new HttpError(404, "User not found");
  return raw;
};
const figures = json(newsletterSendingSchema, "The account's newsletter sending");

const read = adminRoute.get("/admin/users/{id}/newsletter-sending", {
  summary: "An account's newsletter copies in the last 30 days, bounce rate, last send and pause",
  params,
  ok: { 200: figures },
  errors: [404],
});
const change = adminRoute.post("/admin/users/{id}/newsletter-sending", {
  summary: "Pause or resume an account's newsletters (a reason is required; audited)",
  params,
  body: newsletterPauseSchema,
  ok: { 200: figures },
  errors: [404, 409],
});

export function newsletterSendingRoutes() {
  return apiRouter()
    .openapi(...staffAnswer(read, (c) => sending.newsletterSending(db(c), userId(c))))
    .openapi(
      ...staffAnswer(change, async (c, actor) => {
        const { paused, reason } = c.req.valid("json");
        await sending.setSendingPaused(db(c), actor, userId(c), paused, reason);
        return sending.newsletterSending(db(c), userId(c));
      }),
    );
}
