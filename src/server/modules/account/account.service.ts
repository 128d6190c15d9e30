// Leaving with everything, and leaving for good (ADR 029). The export is one ZIP: a JSON file of
// every row the account owns (secrets left out) and every picture it uploaded. Deletion stops the
// subscription at the billing provider first (if that fails, nothing is deleted), then removes
// the rows and the files; the subdomain is free again at once.
import type { Db } from "../../../db/client.ts";
import { ACCOUNT_MESSAGES } from "../../../shared/schemas/account.ts";
import { DomainError, notFoundError } from "../../lib/domain-error.ts";
import { safeSegment } from "../../lib/images.ts";
import type { Storage } from "../../lib/storage.ts";
import { type ZipEntry, zip } from "../../lib/zip.ts";
import type { BillingProvider } from "../billing/provider.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import * as q from "./account.queries.ts";

/** The storage folders that hold an account's uploads (covers, photo, hero, post images, free book). */
export const uploadFolders = (userId: string) =>
  ["covers", "photos", "heroes", "posts", "magnets"].map((kind) => `${kind}/${safeSegment(userId)}`);

/** Column names whose values are credentials, never exported (the rest is the author's own). */
const SECRET = /token|secret|hash|password/i;

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !SECRET.test(k))
        .map(([k, v]) => [k, withoutSecrets(v)]),
    );
  }
  return value;
}

const README = `Your Bookplate data
===================

data.json   Your account, profile, site settings, books (with their retailer links, genres and
            reviews), series, blog posts, newsletter subscribers, newsletters and contact
            messages, as JSON.
images/     Every picture you uploaded, as stored on your site (WebP, in each size), in the same
            folders as the addresses in data.json (/uploads/... is images/...).
            Your free book for new subscribers, if you offer one, is in images/magnets/.
`;

export async function exportArchive(
  db: Db,
  storage: Storage,
  userId: string,
  now = new Date(),
): Promise<{ filename: string; bytes: Buffer }> {
  const data = await q.selectAccountData(db, userId);
  if (!data.account) throw notFoundError("Account not found");
  const entries: ZipEntry[] = [
    { name: "bookplate-export/README.txt", data: Buffer.from(README), modified: now },
    {
      name: "bookplate-export/data.json",
      data: Buffer.from(
        JSON.stringify({ exportedAt: now.toISOString(), ...(withoutSecrets(data) as object) }, null, 2),
      ),
      modified: now,
    },
  ];
  for (const folder of uploadFolders(userId)) {
    for (const key of await storage.list(folder)) {
      entries.push({ name: `bookplate-export/images/${key}`, data: await storage.read(key), modified: now });
    }
  }
  const name = data.website?.subdomain ?? "account";
  return { filename: `bookplate-${name}-${now.toISOString().slice(0, 10)}.zip`, bytes: zip(entries) };
}

export async function deleteAccount(
  db: Db,
  storage: Storage,
  provider: BillingProvider,
  userId: string,
  confirmation: string,
): Promise<void> {
  const account = await q.selectAccount(db, userId);
  if (!account) throw notFoundError("Account not found");
  if (confirmation.trim().toLowerCase() !== account.email.toLowerCase()) {
    throw new DomainError("validation_failed", ACCOUNT_MESSAGES.confirmMismatch, { field: "confirmation" });
  }
  // No more invoices: stop the subscription first. If the provider cannot be reached, nothing
  // is deleted and the author can try again (they would otherwise be charged for a deleted site).
  const sub = await q.selectSubscription(db, userId);
  if (sub?.provider === "stripe" && sub.providerSubscriptionId && sub.status !== "expired") {
    if (provider.name !== "stripe") throw new DomainError("payment_provider_failed", ACCOUNT_MESSAGES.providerFailed);
    try {
      await provider.cancelNow({ subscriptionId: sub.providerSubscriptionId });
    } catch {
      throw new DomainError("payment_provider_failed", ACCOUNT_MESSAGES.providerFailed);
    }
  }
  await db.transaction(async (tx) => {
    // Cached pages of the site go everywhere (the notice is delivered on commit).
    await markSiteChanged(tx, userId);
    await q.deleteAccountRows(tx, userId, account.email);
  });
  for (const folder of uploadFolders(userId)) await storage.removeAll(folder);
}
