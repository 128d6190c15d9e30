// When an account was last used: stamped on sign-in and whenever Better Auth refreshes a session
// (at most daily per session, `session.updateAge`). Session rows cannot answer this: signing out
// deletes them, and the back office's "active users (30 days)" must not fall when someone does.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { user } from "../../../db/schema/index.ts";

export async function touchLastActive(db: Db, userId: string, at = new Date()): Promise<void> {
  await db.update(user).set({ lastActiveAt: at }).where(eq(user.id, userId));
}
