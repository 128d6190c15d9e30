// "Something on this author's site changed": bump the site's version and tell every process,
// so cached public pages of that site are dropped everywhere.
import { type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { websites } from "../../../db/schema/index.ts";

export const SITE_CHANGED_CHANNEL = "site_changed";
/** A site marked changed this recently is not marked again (see siteChangeMark). */
const MARK_GRAIN_MS = 1000;

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
 * The site's "changed" mark, as a statement to run inside the one that makes the change (alone or
 * as a data-modifying `with`). The mark is what the sweep reads (`websites.updated_at` newer than
 * its last look, less a minute); a mark already set in the last second is left as it is, so
 * changes to one site at once (a dashboard's saves) do not queue on the website's row until each
 * other's commits. The sweep's minute of overlap covers that second many times.
 */
export function siteChangeMark(userId: string): SQL {
  const { now, before } = siteMarkTimes();
  return siteChangeMarkOf(userId, now, before);
}

/** The times siteChangeMark sets (`now`) and leaves alone (after `before`), as of now. */
export function siteMarkTimes(): { now: Date; before: Date } {
  const now = Date.now();
  return { now: new Date(now), before: new Date(now - MARK_GRAIN_MS) };
}

/**
 * siteChangeMark with its values given, for a prepared statement (as `sql.placeholder`s); `onlyIf`
 * a further condition (a statement that may change nothing marks only when it did).
 */
export function siteChangeMarkOf(userId: unknown, now: unknown, before: unknown, onlyIf?: SQL): SQL {
  const at = sql.identifier(websites.updatedAt.name);
  const also = onlyIf ? sql` and ${onlyIf}` : sql``;
  return sql`update ${websites} set ${at} = ${now} where ${websites.userId} = ${userId} and ${at} < ${before}${also}`;
}

/** The notice other processes hear, on commit of the statement or transaction it is part of. */
export const siteChangeNotice = (userId: unknown): SQL => sql`pg_notify(${SITE_CHANGED_CHANNEL}, ${userId})`;

/** Tells this process's listeners at once (after siteChangeMark and siteChangeNotice ran). */
export function siteChangedHere(userId: string): void {
  for (const l of localListeners) l(userId);
}

/**
 * Call inside the transaction that makes the change: the notice is delivered on commit. The
 * mark and the notice are one statement (one round trip inside the caller's locks).
 */
export async function markSiteChanged(db: Db | Tx, userId: string): Promise<void> {
  await db.execute(sql`with marked as (${siteChangeMark(userId)}) select ${siteChangeNotice(userId)}`);
  siteChangedHere(userId);
}
