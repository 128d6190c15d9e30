// GET  /api/account/export → 200 application/zip: everything the account owns (ADR 029)
// POST /api/account/delete { confirmation: the account's email } → 200 { deleted: true }: the
//      subscription is cancelled at the provider, then the account, its site, rows and files go;
//      400 when the confirmation does not match; 502 when the provider could not be reached
//      (nothing deleted). The owner is always the session's user.
import { z } from "zod";
import { deleteAccountSchema } from "../../../shared/schemas/account.ts";
import { apiRoute, apiRouter, errors, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { billingProviderFor } from "../billing/provider.ts";
import { deleteAccount, exportArchive } from "./account.service.ts";

const tags = ["Account"];

const exportRoute = apiRoute({
  method: "get",
  path: "/account/export",
  tags,
  summary: "Download everything: a ZIP of the account's data (JSON) and uploaded images",
  responses: {
    200: {
      description: "The archive",
      content: { "application/zip": { schema: { type: "string", format: "binary" } } },
    },
    ...errors(404),
  },
});
const deleteRoute = apiRoute({
  method: "post",
  path: "/account/delete",
  tags,
  summary: "Delete the account, its website and everything in it (typed confirmation)",
  request: { body: jsonBody(deleteAccountSchema) },
  responses: { 200: json(z.object({ deleted: z.literal(true) }), "Deleted"), ...errors(400, 404, 415, 502) },
});

export function accountRoutes() {
  return apiRouter()
    .openapi(exportRoute, async (c) => {
      const me = await requireUser(c);
      const { database, storage } = c.get("deps");
      const { filename, bytes } = await exportArchive(database.db, storage, me.id);
      return c.body(new Uint8Array(bytes), 200, {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${filename}"`,
      });
    })
    .openapi(deleteRoute, async (c) => {
      const me = await requireUser(c);
      const { database, storage, env } = c.get("deps");
      await deleteAccount(database.db, storage, billingProviderFor(env), me.id, c.req.valid("json").confirmation);
      return c.json({ deleted: true as const }, 200);
    });
}
