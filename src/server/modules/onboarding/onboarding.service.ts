// From a verified account to a website and a trial subscription, all or nothing.
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { domainVerifications, profiles, subscriptions, user, websites } from "../../../db/schema/index.ts";
import { TRIAL_DAYS } from "../../../shared/plans.ts";
import { isReservedSubdomain, normaliseSubdomain } from "../../../shared/reserved-subdomains.ts";
import { DOMAIN_MESSAGES } from "../../../shared/schemas/domain.ts";
import {
  ONBOARDING_MESSAGES,
  type OnboardingCompleteInput,
  SUBDOMAIN_MIN,
} from "../../../shared/schemas/onboarding.ts";
import { DomainError, notFoundError } from "../../lib/domain-error.ts";
import { withProfileAndSite } from "../../lib/select-shapes.ts";
import { isDomainTaken } from "../domains/domains.service.ts";

export type Availability = {
  subdomain: string;
  available: boolean;
  reason?: "too_short" | "too_long" | "reserved" | "taken";
};

export async function checkSubdomain(db: Db, raw: string): Promise<Availability> {
  const subdomain = normaliseSubdomain(raw);
  if (subdomain.length < SUBDOMAIN_MIN) return { subdomain, available: false, reason: "too_short" };
  if (subdomain.length > 63) return { subdomain, available: false, reason: "too_long" };
  if (isReservedSubdomain(subdomain)) return { subdomain, available: false, reason: "reserved" };
  const [row] = await db
    .select({ id: websites.id })
    .from(websites)
    .where(eq(sql`lower(${websites.subdomain})`, subdomain));
  return row ? { subdomain, available: false, reason: "taken" } : { subdomain, available: true };
}

export type OnboardingState = {
  name: string;
  email: string;
  onboardingCompleted: boolean;
  /** The author's website once set up (the dashboard's site address), else null. */
  website: {
    websiteName: string;
    subdomain: string | null;
    domainOption: string;
    customDomain: string | null;
    customDomainVerified: boolean;
  } | null;
};

export async function getOnboardingState(db: Db, userId: string): Promise<OnboardingState> {
  const account = db.select({
    name: sql<string>`coalesce(${profiles.name}, ${user.name})`,
    email: sql<string>`coalesce(${profiles.email}, ${user.email})`,
    completed: sql<boolean>`coalesce(${profiles.onboardingCompleted}, false)`,
    websiteId: websites.id,
    websiteName: websites.websiteName,
    subdomain: websites.subdomain,
    domainOption: websites.domainOption,
    customDomain: websites.customDomain,
  });
  const [row] = await withProfileAndSite(account.from(user).$dynamic()).where(eq(user.id, userId));
  if (!row) throw notFoundError("Profile not found");
  let website: OnboardingState["website"] = null;
  if (row.websiteId) {
    // The custom domain is the author's claim (ADR 022): verified once it is the site's address.
    const [claim] = await db
      .select({ domain: domainVerifications.domain, verified: domainVerifications.verified })
      .from(domainVerifications)
      .where(eq(domainVerifications.userId, userId))
      .orderBy(sql`${domainVerifications.createdAt} desc`)
      .limit(1);
    const customDomain = claim?.domain ?? row.customDomain;
    website = {
      websiteName: row.websiteName ?? "",
      subdomain: row.subdomain,
      domainOption: customDomain ? "custom" : (row.domainOption ?? "free"),
      customDomain,
      customDomainVerified: Boolean(
        claim?.verified && row.customDomain && claim.domain.toLowerCase() === row.customDomain.toLowerCase(),
      ),
    };
  }
  return {
    name: row.name,
    email: row.email,
    onboardingCompleted: row.completed === true || website !== null,
    website,
  };
}

function pgCode(err: unknown): { code?: string; constraint?: string } {
  let e = err as { code?: string; constraint?: string; constraint_name?: string; cause?: unknown } | undefined;
  for (let i = 0; e && i < 4; i++) {
    if (e.code) return { code: e.code, constraint: e.constraint ?? e.constraint_name };
    e = e.cause as typeof e;
  }
  return {};
}

const alreadyOnboarded = () =>
  new DomainError("already_onboarded", "You have already set up your website. Go to your dashboard to manage it.");

/**
 * Profile, website (and domain verification for an own domain) and the trial subscription in
 * one transaction. The unique index on lower(subdomain) settles races between two authors.
 */
export async function completeOnboarding(db: Db, userId: string, input: OnboardingCompleteInput, now = new Date()) {
  if (isReservedSubdomain(input.subdomain)) {
    throw new DomainError("subdomain_taken", ONBOARDING_MESSAGES.taken, { field: "subdomain" });
  }
  if (input.ownDomain && (await isDomainTaken(db, userId, input.ownDomain))) {
    throw new DomainError("domain_taken", DOMAIN_MESSAGES.taken, { field: "ownDomain" });
  }
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx.select({ id: websites.id }).from(websites).where(eq(websites.userId, userId));
      if (existing) throw alreadyOnboarded();
      const profile = {
        name: input.name,
        email: input.email,
        ...(input.bio ? { bio: input.bio } : {}),
        ...(input.genre ? { genre: input.genre } : {}),
        onboardingCompleted: true,
        onboardingCompletedAt: now,
        updatedAt: now,
      };
      await tx
        .insert(profiles)
        .values({ id: userId, ...profile })
        .onConflictDoUpdate({ target: profiles.id, set: profile });
      const [site] = await tx
        .insert(websites)
        .values({
          userId,
          websiteName: input.websiteName,
          subdomain: input.subdomain,
          domainOption: input.domainOption,
          // The own domain becomes the site's address once verified (ADR 022); until then a claim.
          customDomain: null,
        })
        .returning();
      let verification: { domain: string; token: string } | null = null;
      if (input.domainOption === "custom" && input.ownDomain) {
        const token = `bookplate-verify-${randomBytes(16).toString("hex")}`;
        await tx.insert(domainVerifications).values({ userId, domain: input.ownDomain, verificationToken: token });
        verification = { domain: input.ownDomain, token };
      }
      const [subscription] = await tx
        .insert(subscriptions)
        .values({
          userId,
          tier: input.tier,
          currency: input.currency,
          status: "trial",
          trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * 24 * 60 * 60 * 1000),
          customDomainAddon: input.domainOption === "custom",
        })
        .returning();
      if (!site || !subscription) throw new Error("onboarding rows not created");
      return { website: site, subscription, verification };
    });
  } catch (err) {
    if (err instanceof DomainError) throw err;
    const { code, constraint } = pgCode(err);
    if (code === "23505") {
      if (constraint?.includes("subdomain"))
        throw new DomainError("subdomain_taken", ONBOARDING_MESSAGES.taken, { field: "subdomain" });
      if (constraint?.includes("custom_domain") || constraint?.includes("domain_verifications")) {
        throw new DomainError("domain_taken", "This domain is already connected to another website.", {
          field: "ownDomain",
        });
      }
      throw alreadyOnboarded();
    }
    throw err;
  }
}
