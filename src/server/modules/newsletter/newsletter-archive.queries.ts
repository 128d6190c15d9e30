// The author's list settings beyond the sign-up form, and the site's archive of sent newsletters
// (ADR 071). Every query takes the owner's id.
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { blogPosts, newsletters, websiteCustomization } from "../../../db/schema/index.ts";
import { saveAuthorRow } from "../../lib/owned-rows.ts";

type Conn = Db | Tx;

export async function selectListSettings(db: Conn, userId: string) {
  const [row] = await db
    .select({
      archiveEnabled: websiteCustomization.newsletterArchiveEnabled,
      postalAddress: websiteCustomization.postalAddress,
    })
    .from(websiteCustomization)
    .where(eq(websiteCustomization.userId, userId));
  return row ?? { archiveEnabled: false, postalAddress: null };
}

export function writeListSettings(
  tx: Tx,
  userId: string,
  v: { archiveEnabled: boolean; postalAddress: string | null },
): Promise<void> {
  const values = { newsletterArchiveEnabled: v.archiveEnabled, postalAddress: v.postalAddress };
  return saveAuthorRow(tx, websiteCustomization, userId, values);
}

/** Sent and not deleted by the author (a deleted sent one is kept, blanked, for the cap: ADR 069). */
const archived = (userId: string) =>
  and(eq(newsletters.userId, userId), eq(newsletters.status, "sent"), isNull(newsletters.deletedAt));
const archiveColumns = {
  id: newsletters.id,
  subject: newsletters.subject,
  sentAt: newsletters.sentAt,
  /** The blog post it was also published as (ADR 071: the archive points there). */
  postSlug: blogPosts.slug,
};

/** The author's sent newsletters, newest first. */
export function selectArchive(db: Conn, userId: string, limit: number) {
  return db
    .select(archiveColumns)
    .from(newsletters)
    .leftJoin(blogPosts, eq(blogPosts.id, newsletters.postId))
    .where(archived(userId))
    .orderBy(desc(newsletters.sentAt), desc(newsletters.id))
    .limit(limit);
}

/** One sent newsletter of the author, with its body. */
export async function selectArchived(db: Conn, userId: string, id: string) {
  const [row] = await db
    .select({ ...archiveColumns, content: newsletters.content })
    .from(newsletters)
    .leftJoin(blogPosts, eq(blogPosts.id, newsletters.postId))
    .where(and(archived(userId), eq(newsletters.id, id)));
  return row ?? null;
}
