// The author's profile (name, bio, tagline, genre, photo): what the About page shows.
//
// GET   /api/profile  → 200 { profile, role }
// PATCH /api/profile  profileUpdateSchema (any subset) → 200 { profile }
import { z } from "zod";
import { profileSchema, profileUpdateSchema } from "../../../shared/schemas/profile.ts";
import { notFound } from "../../http/errors.ts";
import { apiRoute, apiRouter, errors, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { getProfile, updateProfile } from "./profile.service.ts";

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
      const profile = await updateProfile(c.get("deps").database.db, me.id, c.req.valid("json"));
      if (!profile) throw notFound("Profile not found");
      return c.json({ profile }, 200);
    });
}
