// The author's free book for new subscribers (ADR 068). The owner is always the session's user:
// no path or body names whose book this is.
//
// GET    /api/newsletter/magnet       → 200 ReaderMagnetState: the book (or null), downloads per day (30 days)
// POST   /api/newsletter/magnet/file  multipart 'file' → 200 { magnet }: a new or replaced book;
//                                      400 empty or not an EPUB/PDF by its content, 413 over 20 MB
// PATCH  /api/newsletter/magnet       { title } → 200 { magnet }; 404 without a book
// DELETE /api/newsletter/magnet       → 204; 404 without a book
import { z } from "zod";
import {
  MAGNET_MAX_BYTES,
  MAGNET_MESSAGES,
  magnetSchema,
  magnetStateSchema,
  magnetTitleSchema,
} from "../../../shared/schemas/magnet.ts";
import { MB } from "../../../shared/schemas/uploads.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { readNamedUpload, uploadBody, uploadLimit } from "../../http/uploads.ts";
import { getMagnetState, removeMagnet, setMagnetFile, setMagnetTitle } from "./magnet.service.ts";
import { magnetTooLarge } from "./magnet-file.ts";

const route = routes({ tags: ["Newsletter"] });
const one = (description: string) => json(z.object({ magnet: magnetSchema }), description);

const read = route.get("/newsletter/magnet", {
  summary: "The author's free book for new subscribers and its downloads per day",
  ok: { 200: json(magnetStateSchema, "The free book (or null) and the last 30 days' downloads") },
});
const upload = route.post("/newsletter/magnet/file", {
  summary: "Upload or replace the free book",
  description: `An EPUB or a PDF, judged by its content. At most ${MAGNET_MAX_BYTES / MB} MB.`,
  body: uploadBody,
  middleware: [uploadLimit(MAGNET_MAX_BYTES, magnetTooLarge)],
  ok: { 200: one("The free book") },
  errors: [413],
});
const rename = route.patch("/newsletter/magnet", {
  summary: "Set the title the offer shows",
  body: magnetTitleSchema,
  ok: { 200: one("The free book") },
  errors: [404],
});
const remove = route.delete("/newsletter/magnet", {
  summary: "Stop offering the free book and remove its file",
  ok: { 204: { description: "Removed" } },
  errors: [404],
});

export function magnetRoutes() {
  return apiRouter()
    .openapi(...answer(read, (c, me) => getMagnetState(db(c), me.id)))
    .openapi(
      ...answer(upload, async (c, me) => {
        const file = await readNamedUpload(c, {
          maxBytes: MAGNET_MAX_BYTES,
          tooLarge: magnetTooLarge,
          notAFile: MAGNET_MESSAGES.noFile,
          what: "book",
        });
        return { magnet: await setMagnetFile(db(c), c.get("deps").storage, me.id, file) };
      }),
    )
    .openapi(
      ...answer(rename, async (c, me) => ({
        magnet: await setMagnetTitle(db(c), me.id, c.req.valid("json").title),
      })),
    )
    .openapi(...answer(remove, (c, me) => removeMagnet(db(c), c.get("deps").storage, me.id)));
}
