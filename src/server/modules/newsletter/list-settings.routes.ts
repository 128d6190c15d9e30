// The author's list settings beyond the sign-up form (ADR 071).
//
// GET /api/newsletter/settings → 200 { archiveEnabled, postalAddress }
// PUT /api/newsletter/settings { archiveEnabled, postalAddress } → 200; 400 with the field's message
import { listSettingsSchema, listSettingsViewSchema } from "../../../shared/schemas/newsletter-list-settings.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { getListSettings, saveListSettings } from "./newsletter-archive.service.ts";

const route = routes({ tags: ["Newsletter"] });
const settings = json(listSettingsViewSchema, "The web archive and the postal address");

const get = route.get("/newsletter/settings", {
  summary: "The newsletter archive and postal address settings",
  ok: { 200: settings },
});
const put = route.put("/newsletter/settings", {
  summary: "Save the newsletter archive and postal address settings",
  body: listSettingsSchema,
  ok: { 200: settings },
});

export function listSettingsRoutes() {
  return apiRouter()
    .openapi(...answer(get, (c, me) => getListSettings(db(c), me.id)))
    .openapi(...answer(put, (c, me) => saveListSettings(db(c), me.id, c.req.valid("json"))));
}
