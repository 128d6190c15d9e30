// "Something on this author's site changed": bump the site's version and tell every process,
// so cached public pages of that site are dropped everywhere.
import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { websites } from "../../../db/schema/index.ts";

export const SITE_CHANGED_CHANNEL = "site_changed";

type Listener = (userId: string) => void;
const localListeners = new Set<Listener>();

/**
 * Hear changes made by this process at once, without waiting for the NOTIFY round trip. The
 * NOTIFY (delivered on commit) still follows and is what other processes rely on; together they
 * also cover a page rendered from old data between this call and the commit.
 */
export function onLocalSiteChange(listener: Listener): () => void {
  localListeners.add(listener);
  return () => {
    localListeners.delete(listener);
  };
}

/**
 * Call inside the transaction that makes the change: the notice is delivered on commit. The
 * version bump and the notice are one statement (one round trip inside the caller's locks).
 */
export async function markSiteChanged(db: Db | Tx, userId: string): Promise<void> {
  await db.execute(
    sql`with bumped as (update ${websites} set ${sql.identifier(websites.updatedAt.name)} = ${new Date()} where ${eq(websites.userId, userId)}) select pg_notify(${SITE_CHANGED_CHANNEL}, ${userId})`,
  );
  for (const l of localListeners) l(userId);
}
