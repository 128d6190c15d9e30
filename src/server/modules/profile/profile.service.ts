import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { profiles, user } from "../../../db/schema/index.ts";
import type { Profile, ProfileUpdate } from "../../../shared/schemas/profile.ts";
import { cleanAuthorHtml } from "../../lib/html.ts";
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
