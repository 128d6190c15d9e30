// The one gate in front of every admin route: the role is read from the database on each
// request (never from the session's copy or the client), so a revoked admin loses access at once.
import type { Context, MiddlewareHandler } from "hono";
import type { Role } from "../../../shared/enums.ts";
import { ADMIN_MESSAGES, isStaffRole } from "../../../shared/schemas/admin.ts";
import type { AppVars } from "../../http/context.ts";
import { requireUser } from "../../http/session.ts";
import { DomainError, forbiddenError } from "../../lib/domain-error.ts";
import { type Staff, staffRole } from "./admin.service.ts";

const checked = new WeakMap<Request, Staff>();

export async function requireStaff(c: Context<AppVars>): Promise<Staff> {
  const known = checked.get(c.req.raw);
  if (known) return known;
  const me = await requireUser(c);
  const row = await staffRole(c.get("deps").database.db, me.id);
  if (!row || row.banned) throw new DomainError("unauthenticated", "Not authenticated");
  if (!isStaffRole(row.role)) throw forbiddenError(ADMIN_MESSAGES.notStaff);
  const staff = { id: me.id, email: row.email, role: row.role as Role };
  checked.set(c.req.raw, staff);
  return staff;
}

/** Route middleware: 401, then 403, before any input is looked at. */
export const staffOnly: MiddlewareHandler<AppVars> = async (c, next) => {
  await requireStaff(c);
  await next();
};
