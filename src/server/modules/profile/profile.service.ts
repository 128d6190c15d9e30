import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import type { ImageVariants } from "../../../db/schema/books.ts";
import { profiles, user } from "../../../db/schema/index.ts";
import type { Profile, ProfileUpdate } from "../../../shared/schemas/profile.ts";
import { cleanAuthorHtml } from "../../lib/html.ts";
import { safeSegment } from "../../lib/images.ts";
import type { Storage } from "../../lib/storage.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";

export async function createProfileForUser(db: Db, u: { id: string; name: string; email: string }) {
  await db.insert(profiles).values({ id: u.id, name: u.name, email: u.email }).onConflictDoNothing();
}

/** The API's view of a profile row: what the author edits, no bookkeeping columns. */
function toProfile(row: typeof profiles.$inferSelect): Profile {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    bio: row.bio,
    tagline: row.tagline,
    genre: row.genre,
    authorPhotoUrl: row.authorPhotoUrl,
    authorPhotoVariants: row.authorPhotoVariants ?? null,
    writingJourney: row.writingJourney ?? [],
  };
}

export async function getProfile(db: Db, userId: string): Promise<Profile | null> {
  const [row] = await db.select().from(profiles).where(eq(profiles.id, userId));
  return row ? toProfile(row) : null;
}

export async function updateProfile(db: Db, userId: string, input: ProfileUpdate): Promise<Profile | null> {
  const { bio, ...rest } = input;
  const values: Partial<typeof profiles.$inferInsert> = { ...rest, updatedAt: new Date() };
  // The column is NOT NULL, so a bio with no text left after cleaning is stored empty: the
  // author cleared it on purpose, and the About page then shows none rather than a placeholder.
  if (bio !== undefined) values.bio = cleanAuthorHtml(bio) ?? "";
  return db.transaction(async (tx) => {
    if (input.authorPhotoUrl !== undefined) {
      // A different address replaces an uploaded photo; the same one (the form sends it back) keeps it.
      const [before] = await tx.select({ url: profiles.authorPhotoUrl }).from(profiles).where(eq(profiles.id, userId));
      if (before?.url !== input.authorPhotoUrl) values.authorPhotoVariants = null;
    }
    const [row] = await tx.update(profiles).set(values).where(eq(profiles.id, userId)).returning();
    if (!row) return null;
    if (input.name !== undefined) {
      await tx.update(user).set({ name: input.name, updatedAt: new Date() }).where(eq(user.id, userId));
    }
    // Name, bio, tagline and photo all appear on the public site, so its cached pages must go.
    await markSiteChanged(tx, userId);
    return toProfile(row);
  });
}

/** Every stored version of the author's photo lives in this folder. */
export const photoDir = (userId: string) => `photos/${safeSegment(userId)}`;

/** Sets (or with null removes) the uploaded photo; its widest variant is the photo's address. */
export async function setPhoto(db: Db, userId: string, variants: ImageVariants | null): Promise<Profile | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(profiles)
      .set({ authorPhotoVariants: variants, authorPhotoUrl: variants?.at(-1)?.url ?? null, updatedAt: new Date() })
      .where(eq(profiles.id, userId))
      .returning();
    if (!row) return null;
    await markSiteChanged(tx, userId);
    return toProfile(row);
  });
}

/** Removes photo files no longer in use (after a grace, so an upload on its way is never taken). */
export async function prunePhotoFiles(db: Db, storage: Storage, userId: string, graceMs = 60_000): Promise<number> {
  const [row] = await db.select({ v: profiles.authorPhotoVariants }).from(profiles).where(eq(profiles.id, userId));
  return storage.prune(
    photoDir(userId),
    (row?.v ?? []).map((v) => v.url),
    graceMs,
  );
}
