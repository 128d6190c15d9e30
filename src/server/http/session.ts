import type { Context } from "hono";
import type { AppVars, SessionUser } from "./context.ts";
import { unauthenticated } from "./errors.ts";

export type { SessionUser } from "./context.ts";

/** The signed-in user, taken from the session cookie only — never from the request body. */
export async function requireUser(c: Context<AppVars>): Promise<SessionUser> {
  const known = c.get("user");
  if (known) return known;
  const session = await c.get("deps").auth.api.getSession({ headers: c.req.raw.headers });
  if (!session) throw unauthenticated();
  const u = session.user as typeof session.user & { role?: string | null };
  const user = { id: u.id, email: u.email, name: u.name, role: u.role ?? "user" };
  c.set("user", user);
  return user;
}
