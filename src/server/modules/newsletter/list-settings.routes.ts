// The author's list settings beyond the sign-up form (ADR 071).
//
// GET /api/newsletter/settings → 200 { archiveEnabled, postalAddress }
// PUT /api/newsletter/settings { archiveEnabled, postalAddress } → 200; 400 with the field's message
import { listSettingsSchema, listSettingsViewSchema } from "../../../shared/schemas/newsletter-list-settings.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { getListSettings, saveListSettings } from "./newsletter-archive.service.ts";

const route = routes({ tags: ["Newsletter"] });
const settings = route.record("put", "/newsletter/settings", {
  answer: json(listSettingsViewSchema, "The web archive and the postal address"),
  read: "The newsletter archive and postal address settings",
  save: "Save the newsletter archive and postal address settings",
  body: listSettingsSchema,
});

export function listSettingsRoutes() {
  return apiRouter()
    .openapi(...answer(settings.get, (c, me) => getListSettings(db(c), me.id)))
    .openapi(...answer(settings.save, (c, me) => saveListSettings(db(c), me.id, c.req.valid("json"))));
}
