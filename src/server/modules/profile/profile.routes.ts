import { Hono } from "hono";
import { profileUpdateSchema } from "../../../shared/schemas/profile.ts";
import type { AppVars } from "../../http/context.ts";
import { notFound, readJson } from "../../http/errors.ts";
import { requireUser } from "../../http/session.ts";
import { getProfile, updateProfile } from "./profile.service.ts";

export function profileRoutes() {
  const r = new Hono<AppVars>();

  r.get("/profile", async (c) => {
    const me = await requireUser(c);
    const profile = await getProfile(c.get("deps").database.db, me.id);
    if (!profile) throw notFound("Profile not found");
    return c.json({ profile, role: me.role });
  });

  r.patch("/profile", async (c) => {
    const me = await requireUser(c);
    const input = await readJson(c, profileUpdateSchema);
    const profile = await updateProfile(c.get("deps").database.db, me.id, input);
    if (!profile) throw notFound("Profile not found");
    return c.json({ profile });
  });

  return r;
}
