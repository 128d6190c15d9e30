import type { Context } from "hono";
import type { AppVars, SessionUser } from "./context.ts";
import { unauthenticated } from "./errors.ts";

export type { SessionUser } from "./context.ts";

/** The signed-in user, taken from the session cookie only — never from the request body. */
export async function requireUser(c: Context<AppVars>): Promise<SessionUser> {
  const known = c.get("user");
  if (known) return known;
  const user = await c.get("deps").auth.currentUser(c.req.raw.headers);
  if (!user) throw unauthenticated();
  c.set("user", user);
  return user;
}
