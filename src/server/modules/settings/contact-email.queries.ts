// The contact address's verification state (ADR 014). Every query but the token lookup takes the
// owner's id; the token lookup is the link itself, and changes only the row the token belongs to.
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import { contactSettings, user } from "../../../db/schema/index.ts";

export type ContactAddresses = {
  accountEmail: string;
  accountEmailVerified: boolean;
  contactEmail: string | null;
  verifiedContactEmail: string | null;
  verifyTokenEmail: string | null;
};

export async function selectContactAddresses(db: Db | Tx, userId: string): Promise<ContactAddresses | null> {
  const [row] = await db
    .select({
      accountEmail: user.email,
      accountEmailVerified: user.emailVerified,
      contactEmail: contactSettings.contactEmail,
      verifiedContactEmail: contactSettings.verifiedContactEmail,
      verifyTokenEmail: contactSettings.verifyTokenEmail,
    })
    .from(user)
    .leftJoin(contactSettings, eq(contactSettings.userId, user.id))
    .where(eq(user.id, userId));
  return row ?? null;
}

/** Replaces the verification state: a new pending link (or none), and what counts as verified. */
export async function writeVerification(
  tx: Tx,
  userId: string,
  v: {
    verifiedContactEmail: string | null;
    pending: { tokenHash: string; email: string; expiresAt: Date } | null;
  },
): Promise<void> {
  await tx
    .update(contactSettings)
    .set({
      verifiedContactEmail: v.verifiedContactEmail,
      verifyTokenHash: v.pending?.tokenHash ?? null,
      verifyTokenEmail: v.pending?.email ?? null,
      verifyTokenExpiresAt: v.pending?.expiresAt ?? null,
    })
    .where(eq(contactSettings.userId, userId));
}

/**
 * Uses up a link: only an unexpired token whose address is still the contact address counts.
 * Returns the verified address, or null (and nothing changed).
 */
export async function consumeToken(db: Db, tokenHash: string, now: Date): Promise<string | null> {
  const [row] = await db
    .update(contactSettings)
    .set({
      verifiedContactEmail: contactSettings.contactEmail,
      verifyTokenHash: null,
      verifyTokenEmail: null,
      verifyTokenExpiresAt: null,
    })
    .where(
      and(
        eq(contactSettings.verifyTokenHash, tokenHash),
        gt(contactSettings.verifyTokenExpiresAt, now),
        eq(sql`lower(${contactSettings.contactEmail})`, sql`lower(${contactSettings.verifyTokenEmail})`),
      ),
    )
    .returning({ email: contactSettings.contactEmail });
  return row?.email ?? null;
}
