// GET  /api/account/export → 200 application/zip: everything the account owns (ADR 029)
// POST /api/account/delete { confirmation: the account's email } → 200 { deleted: true }: the
//      subscription is cancelled at the provider, then the account, its site, rows and files go;
//      400 when the confirmation does not match; 502 when the provider could not be reached
//      (nothing deleted). The owner is always the session's user.
import { z } from "zod";
import { deleteAccountSchema } from "../../../shared/schemas/account.ts";
import { answer } from "../../http/handlers.ts";
import { apiRouter, fileAnswer, json, routes } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { billingProviderFor } from "../billing/provider.ts";
import { deleteAccount, exportArchive } from "./account.service.ts";

const route = routes({ tags: ["Account"], errors: [404] });

const exportRoute = route.get("/account/export", {
  summary: "Download everything: a ZIP of the account's data (JSON) and uploaded images",
  ok: { 200: fileAnswer("application/zip", "The archive") },
});
const deleteRoute = route.post("/account/delete", {
  summary: "Delete the account, its website and everything in it (typed confirmation)",
  body: deleteAccountSchema,
  ok: { 200: json(z.object({ deleted: z.literal(true) }), "Deleted") },
  errors: [502],
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
    .openapi(
      ...answer(deleteRoute, async (c, me) => {
        const { database, storage, env } = c.get("deps");
        await deleteAccount(database.db, storage, billingProviderFor(env), me.id, c.req.valid("json").confirmation);
        return { deleted: true as const };
      }),
    );
}
