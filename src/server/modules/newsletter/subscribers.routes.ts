// GET    /api/newsletter/subscribers?q=&status=&page= → 200 SubscribersPage: 50 at a time, newest
//        first, searched by address and filtered by status, with the whole list's counts per status
// DELETE /api/newsletter/subscribers/{id} → 204; someone else's id is 404
// POST   /api/newsletter/subscribers/import  multipart 'file' (CSV) + 'consent' → 200 SubscriberImport;
//        400 without consent, for a file that is not CSV or has no email column; 413 over 5 MB or
//        50,000 rows. Nothing is imported unless the whole file is read (ADR 067).
// The owner is always the session's user: no path or body names whose list this is.
import {
  IMPORT_MAX_BYTES,
  IMPORT_MESSAGES,
  subscriberImportSchema,
  subscribersPageSchema,
  subscribersQuerySchema,
} from "../../../shared/schemas/subscribers.ts";
import { HttpError } from "../../http/errors.ts";
import { answer, db } from "../../http/handlers.ts";
import { idParam } from "../../http/ids.ts";
import { apiRoute, apiRouter, errors, json, routes } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { uploadLimit } from "../../http/uploads.ts";
import { DomainError, notFoundError } from "../../lib/domain-error.ts";
import {
  deleteSubscriber,
  importSubscribers,
  listSubscriberPage,
  SUBSCRIBER_NOT_FOUND,
} from "./subscribers.service.ts";

const tags = ["Newsletter"];
const importTooLarge = () => new DomainError("payload_too_large", IMPORT_MESSAGES.tooLarge, { field: "file" });

const route = routes({ tags });
const list = route.get("/newsletter/subscribers", {
  summary: "A page of the newsletter's subscribers, searched and filtered, with counts per status",
  query: subscribersQuerySchema,
  ok: { 200: json(subscribersPageSchema, "A page of the author's list") },
  errors: [400],
});
const remove = route.delete("/newsletter/subscribers/{id}", {
  summary: "Remove a subscriber",
  ok: { 204: { description: "Removed" } },
});

const importList = apiRoute({
  method: "post",
  path: "/newsletter/subscribers/import",
  tags,
  summary: "Import subscribers from another provider's CSV export",
  description:
    `The author confirms ('consent') that everyone on the list asked for their newsletter. New addresses ` +
    "become confirmed subscribers marked imported; addresses already on the list (in any status) are skipped; " +
    `invalid ones are reported by line. At most ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`,
  request: {
    body: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object" as const,
            properties: {
              file: { type: "string" as const, format: "binary" },
              consent: { type: "string" as const, enum: ["true"] },
            },
            required: ["file", "consent"],
          },
        },
      },
    },
  },
  middleware: [uploadLimit(IMPORT_MAX_BYTES, importTooLarge)],
  responses: { 200: json(subscriberImportSchema, "What was imported"), ...errors(400, 413) },
});

const consentGiven = (v: unknown) => typeof v === "string" && ["true", "on", "yes", "1"].includes(v.toLowerCase());

export function subscribersRoutes() {
  return apiRouter()
    .openapi(...answer(list, (c, me) => listSubscriberPage(db(c), me.id, c.req.valid("query"))))
    .openapi(
      ...answer(remove, (c, me) =>
        deleteSubscriber(
          db(c),
          me.id,
          idParam(c.req.param("id"), () => notFoundError(SUBSCRIBER_NOT_FOUND)),
        ),
      ),
    )
    .openapi(importList, async (c) => {
      const me = await requireUser(c);
      if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
        throw new HttpError(400, "Send the list as multipart/form-data with a 'file' field", { field: "file" });
      }
      let form: Record<string, unknown>;
      try {
        form = await c.req.parseBody();
      } catch {
        throw new HttpError(400, "The upload could not be read. Please try again.", { field: "file" });
      }
      // Consent is judged first: without it nothing about the file matters.
      const consent = consentGiven(form.consent);
      const file = form.file;
      if (consent && !(file instanceof File)) throw new HttpError(400, IMPORT_MESSAGES.noFile, { field: "file" });
      const bytes = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array();
      return c.json(await importSubscribers(c.get("deps").database.db, me.id, { bytes, consent }), 200);
    });
}
