// The author's profile (name, bio, tagline, genre, photo): what the About page shows.
//
// GET   /api/profile  → 200 { profile, role }
// PATCH /api/profile  profileUpdateSchema (any subset) → 200 { profile }
// POST  /api/profile/photo  multipart 'file' → 200 { profile }: cropped square, WebP in three
//                           sizes; 400 not an image, 413 too big (bytes or pixels)
// DELETE /api/profile/photo → 200 { profile } without a photo
import { z } from "zod";
import { profileSchema, profileUpdateSchema } from "../../../shared/schemas/profile.ts";
import { PHOTO_MAX_BYTES, PHOTO_WIDTHS } from "../../../shared/schemas/uploads.ts";
import type { AppVars } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { storeUploadedImage, tidyUploads, uploadBody, uploadLimit } from "../../http/uploads.ts";
import { imageTooLarge } from "../../lib/images.ts";
import { getProfile, photoDir, prunePhotoFiles, setPhoto, updateProfile } from "./profile.service.ts";

const PHOTO_RULES = { widths: PHOTO_WIDTHS, maxBytes: PHOTO_MAX_BYTES, aspect: 1, label: "Photo" };
const photoTooLarge = () => imageTooLarge(PHOTO_RULES);

function tidyPhotos(c: { get(k: "deps"): AppVars["Variables"]["deps"] }, userId: string, graceMs?: number) {
  const { database, storage, logger } = c.get("deps");
  return tidyUploads(logger, "photo", () => prunePhotoFiles(database.db, storage, userId, graceMs));
}

// Every route answers 404 'Profile not found' for an account with no profile row.
const route = routes({ tags: ["Profile"], errors: [404] });
const withProfile = (description: string) => json(z.object({ profile: profileSchema }), description);

const read = route.get("/profile", {
  summary: "The signed-in author's profile and role",
  ok: { 200: json(z.object({ profile: profileSchema, role: z.string() }), "The profile") },
});
const update = route.patch("/profile", {
  summary: "Change any of the profile's fields",
  body: profileUpdateSchema,
  ok: { 200: withProfile("The saved profile") },
});
const uploadPhoto = route.post("/profile/photo", {
  summary: "Upload the author's photo",
  description: `Cropped square and stored as WebP in ${PHOTO_WIDTHS.length} sizes. At most ${PHOTO_MAX_BYTES / 1024 / 1024} MB.`,
  body: uploadBody,
  middleware: [uploadLimit(PHOTO_MAX_BYTES, photoTooLarge)],
  ok: { 200: withProfile("The profile with its photo") },
  errors: [413],
});
const removePhoto = route.delete("/profile/photo", {
  summary: "Remove the author's photo",
  ok: { 200: withProfile("The profile without a photo") },
});

/** The profile a service returned, or the 404 every route here answers without one. */
function found<P>(profile: P | null | undefined): P {
  if (!profile) throw notFound("Profile not found");
  return profile;
}

export function profileRoutes() {
  return apiRouter()
    .openapi(...answer(read, async (c, me) => ({ profile: found(await getProfile(db(c), me.id)), role: me.role })))
    .openapi(
      ...answer(update, async (c, me) => {
        const input = c.req.valid("json");
        const profile = found(await updateProfile(db(c), me.id, input));
        if (input.authorPhotoUrl !== undefined) await tidyPhotos(c, me.id);
        return { profile };
      }),
    )
    .openapi(
      ...answer(uploadPhoto, async (c, me) => {
        const variants = await storeUploadedImage(c, PHOTO_RULES, photoDir(me.id));
        const profile = found(await setPhoto(db(c), me.id, variants));
        await tidyPhotos(c, me.id);
        return { profile };
      }),
    )
    .openapi(
      ...answer(removePhoto, async (c, me) => {
        const profile = found(await setPhoto(db(c), me.id, null));
        await tidyPhotos(c, me.id, 0);
        return { profile };
      }),
    );
}
