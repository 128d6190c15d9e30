// The author's profile (name, bio, tagline, genre, photo): what the About page shows.
//
// GET   /api/profile  → 200 { profile, role }
// PATCH /api/profile  profileUpdateSchema (any subset) → 200 { profile }
// POST  /api/profile/photo  multipart 'file' → 200 { profile }: cropped square, WebP in three
//                           sizes; 400 not an image, 413 too big (bytes or pixels)
// DELETE /api/profile/photo → 200 { profile } without a photo
import { z } from "zod";
import { profileSchema, profileUpdateSchema } from "../../../shared/schemas/profile.ts";
import { NOT_AN_IMAGE, PHOTO_MAX_BYTES, PHOTO_WIDTHS } from "../../../shared/schemas/uploads.ts";
import type { AppVars } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { apiRoute, apiRouter, errors, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { readUploadedFile, tidyUploads, uploadBody, uploadLimit } from "../../http/uploads.ts";
import { imageTooLarge, processImage, storeImage } from "../../lib/images.ts";
import { getProfile, photoDir, prunePhotoFiles, setPhoto, updateProfile } from "./profile.service.ts";

const PHOTO_RULES = { widths: PHOTO_WIDTHS, maxBytes: PHOTO_MAX_BYTES, aspect: 1, label: "Photo" };
const photoTooLarge = () => imageTooLarge(PHOTO_RULES);

function tidyPhotos(c: { get(k: "deps"): AppVars["Variables"]["deps"] }, userId: string, graceMs?: number) {
  const { database, storage, logger } = c.get("deps");
  return tidyUploads(logger, "photo", () => prunePhotoFiles(database.db, storage, userId, graceMs));
}

const tags = ["Profile"];

const read = apiRoute({
  method: "get",
  path: "/profile",
  tags,
  summary: "The signed-in author's profile and role",
  responses: { 200: json(z.object({ profile: profileSchema, role: z.string() }), "The profile"), ...errors(404) },
});
const update = apiRoute({
  method: "patch",
  path: "/profile",
  tags,
  summary: "Change any of the profile's fields",
  request: { body: jsonBody(profileUpdateSchema) },
  responses: { 200: json(z.object({ profile: profileSchema }), "The saved profile"), ...errors(400, 404, 415) },
});
const uploadPhoto = apiRoute({
  method: "post",
  path: "/profile/photo",
  tags,
  summary: "Upload the author's photo",
  description: `Cropped square and stored as WebP in ${PHOTO_WIDTHS.length} sizes. At most ${PHOTO_MAX_BYTES / 1024 / 1024} MB.`,
  request: { body: uploadBody },
  middleware: [uploadLimit(PHOTO_MAX_BYTES, photoTooLarge)],
  responses: {
    200: json(z.object({ profile: profileSchema }), "The profile with its photo"),
    ...errors(400, 404, 413),
  },
});
const removePhoto = apiRoute({
  method: "delete",
  path: "/profile/photo",
  tags,
  summary: "Remove the author's photo",
  responses: { 200: json(z.object({ profile: profileSchema }), "The profile without a photo"), ...errors(404) },
});

export function profileRoutes() {
  return apiRouter()
    .openapi(read, async (c) => {
      const me = await requireUser(c);
      const profile = await getProfile(c.get("deps").database.db, me.id);
      if (!profile) throw notFound("Profile not found");
      return c.json({ profile, role: me.role }, 200);
    })
    .openapi(update, async (c) => {
      const me = await requireUser(c);
      const input = c.req.valid("json");
      const profile = await updateProfile(c.get("deps").database.db, me.id, input);
      if (!profile) throw notFound("Profile not found");
      if (input.authorPhotoUrl !== undefined) await tidyPhotos(c, me.id);
      return c.json({ profile }, 200);
    })
    .openapi(uploadPhoto, async (c) => {
      const me = await requireUser(c);
      const { database, storage } = c.get("deps");
      const bytes = await readUploadedFile(c, {
        maxBytes: PHOTO_MAX_BYTES,
        tooLarge: photoTooLarge,
        notAFile: NOT_AN_IMAGE,
        what: "photo",
      });
      const variants = await storeImage(storage, photoDir(me.id), await processImage(bytes, PHOTO_RULES));
      const profile = await setPhoto(database.db, me.id, variants);
      if (!profile) throw notFound("Profile not found");
      await tidyPhotos(c, me.id);
      return c.json({ profile }, 200);
    })
    .openapi(removePhoto, async (c) => {
      const me = await requireUser(c);
      const profile = await setPhoto(c.get("deps").database.db, me.id, null);
      if (!profile) throw notFound("Profile not found");
      await tidyPhotos(c, me.id, 0);
      return c.json({ profile }, 200);
    });
}
