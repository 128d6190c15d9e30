// The author's list settings (the web archive, the postal address) and what the site's archive
// of sent newsletters reads (ADR 071). Only `sent` newsletters are ever read here: a draft, a
// scheduled one or one still going out is in no archive.
import type { Db, Tx } from "../../../db/client.ts";
import { isUuid } from "../../../shared/ids.ts";
import type { ListSettings } from "../../../shared/schemas/newsletter-list-settings.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import * as q from "./newsletter-archive.queries.ts";

/** How many newsletters the archive lists (and the sitemap names). */
export const ARCHIVE_LIMIT = 500;

export const getListSettings = (db: Db, userId: string): Promise<ListSettings> => q.selectListSettings(db, userId);

/** Saved, and the site's cached pages dropped: the archive and its pages come or go at once. */
export async function saveListSettings(db: Db, userId: string, input: ListSettings): Promise<ListSettings> {
  await db.transaction(async (tx) => {
    await q.writeListSettings(tx, userId, input);
    await markSiteChanged(tx, userId);
  });
  return getListSettings(db, userId);
}

/** The author's postal address for a mail's footer, or null when they gave none. */
export async function postalAddressOf(db: Db | Tx, userId: string): Promise<string | null> {
  return (await q.selectListSettings(db, userId)).postalAddress;
}

export type ArchiveEntry = Awaited<ReturnType<typeof q.selectArchive>>[number];
export type ArchivedNewsletter = NonNullable<Awaited<ReturnType<typeof q.selectArchived>>>;

/** The author's sent newsletters, newest first. */
export const listArchive = (db: Db, userId: string) => q.selectArchive(db, userId, ARCHIVE_LIMIT);

/** One sent newsletter of this author by its id; null for anything else (another author's too). */
export function findArchived(db: Db, userId: string, id: string): Promise<ArchivedNewsletter | null> {
  return isUuid(id) ? q.selectArchived(db, userId, id.toLowerCase()) : Promise.resolve(null);
}
