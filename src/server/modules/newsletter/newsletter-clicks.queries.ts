// A newsletter's counted links and their clicks (ADR 069). A click is read through the link's
// newsletter and its owner, so a link of another author's newsletter is not there.
import { asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { newsletterLinkReaders, newsletterLinks, newsletters } from "../../../db/schema/index.ts";

type Conn = Db | Tx;
const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

export async function insertLinks(tx: Tx, newsletterId: string, urls: readonly string[]): Promise<void> {
  if (urls.length === 0) return;
  await tx
    .insert(newsletterLinks)
    .values(urls.map((url, position) => ({ newsletterId, url, position })))
    .onConflictDoNothing();
}

export function selectLinks(db: Conn, newsletterId: string): Promise<{ id: string; url: string }[]> {
  return db
    .select({ id: newsletterLinks.id, url: newsletterLinks.url })
    .from(newsletterLinks)
    .where(eq(newsletterLinks.newsletterId, newsletterId));
}

/** The link of this author's newsletter, or null. */
const ownLink = (userId: string, linkId: string) => sql`
  select ${newsletterLinks.id} as id, ${newsletterLinks.url} as url
  from ${newsletterLinks} join ${newsletters} on ${newsletters.id} = ${newsletterLinks.newsletterId}
  where ${newsletterLinks.id} = ${linkId}::uuid and ${newsletters.userId} = ${userId}`;

export async function selectLinkUrl(db: Conn, userId: string, linkId: string): Promise<string | null> {
  return rowsOf<{ url: string }>(await db.execute(ownLink(userId, linkId)))[0]?.url ?? null;
}

/**
 * One click, in one statement: the reader is added once per link (their slice, ON CONFLICT DO
 * NOTHING), the link's clicks always and its readers when they were new. Returns the link's
 * address, or null when it is not this author's.
 */
export async function countClick(db: Conn, userId: string, linkId: string, reader: number): Promise<string | null> {
  const res = await db.execute(sql`
    with link as (${ownLink(userId, linkId)}),
    added as (
      insert into ${newsletterLinkReaders} ("link_id", "reader") select id, ${reader} from link
      on conflict do nothing
      returning 1
    )
    update ${newsletterLinks}
    set "clicks" = ${newsletterLinks.clicks} + 1, "readers" = ${newsletterLinks.readers} + (select count(*)::int from added)
    where ${newsletterLinks.id} in (select id from link)
    returning ${newsletterLinks.url} as url`);
  return rowsOf<{ url: string }>(res)[0]?.url ?? null;
}

export function selectLinkFigures(db: Conn, newsletterId: string) {
  return db
    .select({ url: newsletterLinks.url, clicks: newsletterLinks.clicks, readers: newsletterLinks.readers })
    .from(newsletterLinks)
    .where(eq(newsletterLinks.newsletterId, newsletterId))
    .orderBy(asc(newsletterLinks.position));
}
