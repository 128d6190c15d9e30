// Custom domains (ADR 022): an author claims a domain, proves it with a TXT record, points it at
// us, and the site answers there. Real DNS lookups through `DnsLookup`; every outcome is told to
// the author in words they can act on.
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db/client.ts";
import {
  DOMAIN_MESSAGES,
  type DomainCheck,
  type DomainProblem,
  type DomainState,
} from "../../../shared/schemas/domain.ts";
import { canonicalName, type DnsLookup } from "../../lib/dns.ts";
import { conflictError, DomainError, notFoundError, RateLimited, waitInWords } from "../../lib/domain-error.ts";
import { dbRateLimiter } from "../../lib/rate-limiter.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import { type DomainEnv, diagnose, dnsRecords } from "./domain-dns.ts";
import * as q from "./domains.queries.ts";

export type { DomainEnv } from "./domain-dns.ts";

function protocolOf(appOrigin: string) {
  return new URL(appOrigin).protocol;
}

export async function getDomainState(db: Db, env: DomainEnv, userId: string): Promise<DomainState> {
  const site = await q.selectWebsite(db, userId);
  if (!site) throw notFoundError(DOMAIN_MESSAGES.noWebsite);
  const claim = await q.selectClaim(db, userId);
  const proto = protocolOf(env.appOrigin);
  const subdomainUrl = site.subdomain ? `${proto}//${site.subdomain}.${env.sitesDomain}` : null;
  const verified = Boolean(
    claim?.verified && site.customDomain && claim.domain.toLowerCase() === site.customDomain.toLowerCase(),
  );
  const lastCheck: DomainCheck | null = claim?.lastCheckedAt
    ? {
        ok: claim.lastProblem === null,
        ...(claim.lastProblem ? { problem: claim.lastProblem as DomainProblem } : {}),
        message: claim.lastMessage ?? "",
        checkedAt: claim.lastCheckedAt.toISOString(),
      }
    : null;
  return {
    domain: claim?.domain ?? null,
    status: !claim ? "none" : verified ? "verified" : "pending",
    records: claim ? dnsRecords(env, claim.domain, claim.verificationToken) : [],
    verifiedAt: verified && claim?.verifiedAt ? claim.verifiedAt.toISOString() : null,
    lastCheck,
    liveUrl: verified && claim ? `${proto}//${claim.domain}` : subdomainUrl,
    subdomainUrl,
  };
}

/** Our own hosts (the app's, and the sites domain with every subdomain) are not custom domains. */
function isOurs(env: DomainEnv, domain: string): boolean {
  const sites = env.sitesDomain.replace(/:\d+$/, "");
  const app = new URL(env.appOrigin).hostname;
  return [sites, app, env.domainTarget.cname].some((own) => domain === own || domain.endsWith(`.${own}`));
}

/** Whether another author holds `domain` (verified, or as their site's address). */
export const isDomainTaken = (db: Db, userId: string, domain: string) =>
  q.domainHeldByOther(db, userId, domain.toLowerCase());

/** Whether this author may claim `domain` now (checks only: nothing changes). */
export async function assertClaimable(db: Db, env: DomainEnv, userId: string, domain: string) {
  if (isOurs(env, domain)) throw new DomainError("validation_failed", DOMAIN_MESSAGES.ours, { field: "domain" });
  const site = await q.selectWebsite(db, userId);
  if (!site) throw notFoundError(DOMAIN_MESSAGES.noWebsite);
  if (!site.subdomain) throw conflictError("Your site needs its free subdomain before a custom domain can be added.");
  if (await q.domainHeldByOther(db, userId, domain)) {
    throw new DomainError("domain_taken", DOMAIN_MESSAGES.taken, { field: "domain" });
  }
  return site;
}

/**
 * Claim a domain (or change the claim): a fresh token, the records to add, and the site back on
 * its subdomain until the new domain is verified. The same domain again keeps its token.
 */
export async function startDomain(db: Db, env: DomainEnv, userId: string, domain: string): Promise<DomainState> {
  const site = await assertClaimable(db, env, userId, domain);
  const current = await q.selectClaim(db, userId);
  if (current && current.domain.toLowerCase() === domain) return getDomainState(db, env, userId);
  await db.transaction(async (tx) => {
    await q.replaceClaim(tx, userId, domain, `bookplate-verify-${randomBytes(16).toString("hex")}`);
    if (site.customDomain) {
      await q.setSiteDomain(tx, userId, null);
      await markSiteChanged(tx, userId);
    }
  });
  return getDomainState(db, env, userId);
}

/** The author's own checks (each asks DNS a few questions): enough to fix records, not to probe. */
export const DOMAIN_CHECKS = { max: 10, windowMs: 10 * 60_000 } as const;

/** Check the claimed domain's records now; verified when all is right. */
export async function verifyDomain(
  db: Db,
  env: DomainEnv,
  dns: DnsLookup,
  userId: string,
  now = new Date(),
): Promise<{ state: DomainState; check: DomainCheck }> {
  const claim = await q.selectClaim(db, userId);
  if (!claim) throw notFoundError("Add a domain first.", { field: "domain" });
  const allowance = await dbRateLimiter(db, "domain-check", DOMAIN_CHECKS.max, DOMAIN_CHECKS.windowMs).attempt(userId);
  if (!allowance.allowed) {
    throw new RateLimited(
      `You have checked your domain ${DOMAIN_CHECKS.max} times in the last few minutes. New DNS records can take a while to appear: please check again ${waitInWords(allowance.retryAfterSeconds)} (we also keep checking every ${PENDING_CHECK_MINUTES} minutes and email you when it is connected).`,
      allowance.retryAfterSeconds,
    );
  }
  const result = await checkClaim(db, env, dns, claim, now);
  return { state: await getDomainState(db, env, userId), check: result.check };
}

type ClaimResult = { check: DomainCheck; change: "verified" | "lost" | null };

/** One check of one claim, with its consequences: verify, or (for a verified one) fall back. */
async function checkClaim(db: Db, env: DomainEnv, dns: DnsLookup, claim: q.DomainRow, now: Date): Promise<ClaimResult> {
  const d = await diagnose(dns, env, claim.domain, claim.verificationToken);
  const checkedAt = now.toISOString();
  if (d.ok) {
    if (claim.verified) {
      await q.recordCheck(db, claim.id, { at: now, problem: null, message: DOMAIN_MESSAGES.updated });
      return { check: { ok: true, message: DOMAIN_MESSAGES.updated, checkedAt }, change: null };
    }
    const domain = claim.domain.toLowerCase();
    if (await q.domainHeldByOther(db, claim.userId, domain)) {
      await q.recordCheck(db, claim.id, { at: now, problem: null, message: DOMAIN_MESSAGES.taken });
      throw new DomainError("domain_taken", DOMAIN_MESSAGES.taken, { field: "domain" });
    }
    try {
      await db.transaction(async (tx) => {
        await q.recordCheck(tx, claim.id, { at: now, problem: null, message: DOMAIN_MESSAGES.updated, verified: true });
        await q.setSiteDomain(tx, claim.userId, domain);
        await markSiteChanged(tx, claim.userId);
      });
    } catch (err) {
      // Another author proved the same domain a moment earlier: the unique indexes decide.
      if (
        (err as { code?: string }).code === "23505" ||
        (err as { cause?: { code?: string } }).cause?.code === "23505"
      ) {
        throw new DomainError("domain_taken", DOMAIN_MESSAGES.taken, { field: "domain" });
      }
      throw err;
    }
    return { check: { ok: true, message: DOMAIN_MESSAGES.updated, checkedAt }, change: "verified" };
  }
  const check: DomainCheck = { ok: false, problem: d.problem, message: d.message, checkedAt };
  // A verified domain stays verified through a DNS hiccup or a removed TXT record (ownership was
  // proven); once it no longer reaches us, the site goes back to its subdomain.
  const lost =
    claim.verified &&
    (d.problem === "no_pointer" || d.problem === "points_elsewhere" || d.problem === "no_such_domain");
  if (lost) {
    await db.transaction(async (tx) => {
      await q.recordCheck(tx, claim.id, { at: now, problem: d.problem, message: d.message, verified: false });
      await q.setSiteDomain(tx, claim.userId, null);
      await markSiteChanged(tx, claim.userId);
    });
    return { check, change: "lost" };
  }
  await q.recordCheck(db, claim.id, { at: now, problem: d.problem, message: d.message });
  return { check, change: null };
}

/** Remove the custom domain: the site is back on its subdomain at once. */
export async function removeDomain(db: Db, env: DomainEnv, userId: string): Promise<DomainState> {
  const site = await q.selectWebsite(db, userId);
  if (!site) throw notFoundError(DOMAIN_MESSAGES.noWebsite);
  if (!site.subdomain && site.customDomain) {
    throw conflictError("Your site needs its free subdomain before its custom domain can be removed.");
  }
  await db.transaction(async (tx) => {
    await q.deleteClaims(tx, userId);
    if (site.customDomain) {
      await q.setSiteDomain(tx, userId, null);
      await markSiteChanged(tx, userId);
    }
  });
  return getDomainState(db, env, userId);
}

export const PENDING_CHECK_MINUTES = 10;
export const PENDING_CHECK_HOURS = 72;

/**
 * The background re-check: pending claims every 10 minutes for 72 hours, verified ones daily.
 * Calls `notify` once for each claim that became verified or stopped reaching us.
 */
export async function recheckDomains(
  db: Db,
  env: DomainEnv,
  dns: DnsLookup,
  notify: (userId: string, domain: string, change: "verified" | "lost", check: DomainCheck) => Promise<void>,
  now = new Date(),
): Promise<{ checked: number; verified: number; lost: number }> {
  const due = await q.takeDueClaims(
    db,
    now,
    new Date(now.getTime() - PENDING_CHECK_HOURS * 3600_000),
    new Date(now.getTime() - (PENDING_CHECK_MINUTES - 1) * 60_000),
    new Date(now.getTime() - 23 * 3600_000),
  );
  let verified = 0;
  let lost = 0;
  for (const claim of due) {
    try {
      const r = await checkClaim(db, env, dns, claim, now);
      if (r.change) {
        if (r.change === "verified") verified++;
        else lost++;
        await notify(claim.userId, claim.domain, r.change, r.check);
      }
    } catch (err) {
      if (!(err instanceof DomainError)) throw err; // taken by another author meanwhile: recorded, not fatal
    }
  }
  return { checked: due.length, verified, lost };
}

function served(row: { status: string | null; periodEnd: Date | null } | null, now: Date): boolean {
  if (!row) return false;
  const status = row.status ?? "trial";
  if (status === "expired") return false;
  if (status === "cancelled" && row.periodEnd && row.periodEnd < now) return false;
  return true;
}

/**
 * The TLS terminator's question before it gets a certificate for `host`: yes for our own
 * `{sub}.SITES_DOMAIN` hosts and verified custom domains (and their www./bare twin, which
 * redirects), of sites that are served.
 */
export async function mayIssueCertificate(db: Db, env: DomainEnv, rawHost: string, now = new Date()): Promise<boolean> {
  const host = canonicalName(rawHost);
  if (!host || host.length > 253 || !/^[a-z0-9.-]+$/.test(host)) return false;
  const sites = env.sitesDomain.replace(/:\d+$/, "");
  if (host.endsWith(`.${sites}`)) {
    const sub = host.slice(0, -(sites.length + 1));
    if (!/^[a-z0-9]{3,63}$/.test(sub)) return false;
    return served(await q.selectServedBySubdomain(db, sub), now);
  }
  if (served(await q.selectServedByDomain(db, host), now)) return true;
  // The www. or bare form of a verified domain redirects to it, over HTTPS too.
  const other = host.startsWith("www.") ? host.slice(4) : `www.${host}`;
  return other.includes(".") && served(await q.selectServedByDomain(db, other), now);
}
