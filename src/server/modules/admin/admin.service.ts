// The back office: figures, accounts, traffic, metrics and the audit log across every tenant (its
// money is finance.service.ts, its side of support tickets admin-tickets.service.ts). Only the
// admin routes call this, and only after `requireStaff` read the caller's role from the database.
import type { Db, Tx } from "../../../db/client.ts";
import type { Currency, Role, SubscriptionStatus, Tier } from "../../../shared/enums.ts";
import {
  ADMIN_LIMITS,
  type AdminUser,
  type Analytics,
  type AuditEntry,
  type Overview,
  type SystemMetrics,
  type UsersPage,
  type UsersQuery,
} from "../../../shared/schemas/admin.ts";
import { siteLiveUrl } from "../../../shared/site-address.ts";
import { conflictError, forbiddenError, notFoundError } from "../../lib/domain-error.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import * as q from "./admin.queries.ts";
import { monthRevenue, startOfMonth } from "./finance.service.ts";
import type { Staff } from "./staff.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export type { Staff } from "./staff.ts";

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
/** The analytics window: today and the 29 days before it. */
const windowStart = (now: Date) => isoDate(new Date(now.getTime() - (ADMIN_LIMITS.analyticsDays - 1) * DAY_MS));

// ---------------------------------------------------------------------------------------------
// Overview.

export async function overview(db: Db, now = new Date()): Promise<Overview> {
  const revenue = await monthRevenue(db, now);
  const latest = await q.selectLatestMetrics(db);
  return {
    revenueThisMonthGbpMinor: revenue.gbpMinor,
    activeUsers30d: await q.countActiveUsersSince(db, new Date(now.getTime() - ADMIN_LIMITS.analyticsDays * DAY_MS)),
    totalUsers: await q.countAllAccounts(db),
    openTickets: await q.countOpenTickets(db),
    latestMetrics: latest ? metricsView(latest) : null,
  };
}

function metricsView(row: NonNullable<Awaited<ReturnType<typeof q.selectLatestMetrics>>>): SystemMetrics {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

// ---------------------------------------------------------------------------------------------
// Users.

/** What the service needs to build a site's public address. */
export type SiteAddressEnv = { appOrigin: string; sitesDomain: string };

export async function usersPage(db: Db, query: UsersQuery, env: SiteAddressEnv): Promise<UsersPage> {
  const [rows, total] = [await q.selectAllUsersPage(db, query), await q.countAllUsers(db, query)];
  return {
    users: rows.map(
      ({ customDomainVerified, providerSubscriptionId, ...r }): AdminUser => ({
        ...r,
        liveUrl: siteLiveUrl({ ...r, customDomainVerified }, env),
        checkoutCompleted: providerSubscriptionId !== null,
        role: r.role as Role,
        banned: r.banned ?? false,
        tier: (r.tier as Tier | null) ?? null,
        status: (r.status as SubscriptionStatus | null) ?? null,
        currency: (r.currency as Currency | null) ?? null,
        trialEndsAt: r.trialEndsAt?.toISOString() ?? null,
        currentPeriodEnd: r.currentPeriodEnd?.toISOString() ?? null,
        joinedAt: r.joinedAt.toISOString(),
      }),
    ),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

const userNotFound = () => notFoundError("User not found");

/** Roles are granted by a super admin only, and nobody changes their own. */
export async function changeRole(db: Db, actor: Staff, userId: string, role: Role) {
  if (actor.role !== "super_admin") throw forbiddenError("Only a super admin can change roles");
  if (actor.id === userId) throw conflictError("You cannot change your own role");
  return db.transaction(async (tx) => {
    const target = await q.findAnyUser(tx, userId);
    if (!target) throw userNotFound();
    await q.setAnyUserRole(tx, userId, role);
    await q.insertAudit(tx, actor, "role_changed", {
      targetUserId: userId,
      target: target.email,
      detail: `${target.role} → ${role}`,
    });
  });
}

/**
 * Banned: every session ends, sign-in is refused (Better Auth's admin plugin reads `banned`) and
 * the site answers the unavailable page. Unbanning restores both; the data was never touched.
 */
export async function setBanned(db: Db, actor: Staff, userId: string, banned: boolean, reason: string | null) {
  if (actor.id === userId) throw conflictError("You cannot ban yourself");
  return db.transaction(async (tx) => {
    const target = await q.findAnyUser(tx, userId);
    if (!target) throw userNotFound();
    if (target.role === "super_admin" && actor.role !== "super_admin") {
      throw forbiddenError("Only a super admin can ban a super admin");
    }
    await q.setAnyUserBanned(tx, userId, banned, reason);
    await markSiteChanged(tx, userId);
    await q.insertAudit(tx, actor, banned ? "user_banned" : "user_unbanned", {
      targetUserId: userId,
      target: target.email,
      detail: reason || null,
    });
  });
}

/** For the password-reset action: the account's email, audited before the mail goes. */
export async function auditPasswordReset(db: Db, actor: Staff, userId: string): Promise<string> {
  const target = await q.findAnyUser(db, userId);
  if (!target) throw userNotFound();
  await q.insertAudit(db, actor, "password_reset_sent", { targetUserId: userId, target: target.email });
  return target.email;
}

// ---------------------------------------------------------------------------------------------
// Traffic.

export async function analytics(db: Db, env: SiteAddressEnv, now = new Date()): Promise<Analytics> {
  const since = windowStart(now);
  const totals = await q.sumAllTrafficSince(db, since);
  const top = (await q.selectTopWebsitesSince(db, since, ADMIN_LIMITS.topWebsites)).map(
    ({ customDomain, customDomainVerified, ...w }) => ({
      ...w,
      liveUrl: siteLiveUrl({ subdomain: w.subdomain, customDomain, customDomainVerified }, env),
    }),
  );
  const daily = new Map((await q.selectDailyTrafficSince(db, since)).map((d) => [d.date, d]));
  const days = Array.from({ length: ADMIN_LIMITS.analyticsDays }, (_, i) =>
    isoDate(new Date(now.getTime() - (ADMIN_LIMITS.analyticsDays - 1 - i) * DAY_MS)),
  );
  return {
    days: ADMIN_LIMITS.analyticsDays,
    pageViews: totals.pageViews,
    uniqueVisitors: totals.uniqueVisitors,
    activeWebsites: totals.activeWebsites,
    topWebsites: top,
    visitorRatioPercent:
      totals.pageViews > 0 ? Math.round((totals.uniqueVisitors / totals.pageViews) * 1000) / 10 : null,
    pagesPerVisitor:
      totals.uniqueVisitors > 0 ? Math.round((totals.pageViews / totals.uniqueVisitors) * 100) / 100 : null,
    daily: days.map((date) => ({
      date,
      pageViews: daily.get(date)?.pageViews ?? 0,
      uniqueVisitors: daily.get(date)?.uniqueVisitors ?? 0,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Metrics: the spec's calculate_daily_metrics, from Recalculate/Refresh and the daily job.

export async function recalculateMetrics(db: Db | Tx, now = new Date()): Promise<SystemMetrics> {
  const today = isoDate(now);
  const dayStart = new Date(`${today}T00:00:00Z`);
  const byStatusTier = await q.countAllSubscriptionsByStatusAndTier(db);
  const live = byStatusTier.filter((r) => r.status !== "expired");
  const tierCount = (tier: Tier) => live.filter((r) => r.tier === tier).reduce((n, r) => n + r.n, 0);
  const statusCount = (status: SubscriptionStatus) =>
    byStatusTier.filter((r) => r.status === status).reduce((n, r) => n + r.n, 0);
  const revenue = await monthRevenue(db, now);
  await q.upsertMetrics(db, {
    metricDate: today,
    totalUsers: await q.countAllAccounts(db),
    newSignups: await q.countSignupsSince(db, dayStart),
    monthlyRevenueGbpMinor: revenue.gbpMinor,
    paidUsers: statusCount("active"),
    activeUsers: await q.countActiveUsersSince(db, new Date(now.getTime() - ADMIN_LIMITS.analyticsDays * DAY_MS)),
    trialUsers: statusCount("trial"),
    miniTierUsers: tierCount("mini"),
    midiTierUsers: tierCount("midi"),
    maxiTierUsers: tierCount("maxi"),
    megaTierUsers: tierCount("mega"),
    churnCount: await q.countAllChurnSince(db, startOfMonth(now)),
  });
  const latest = await q.selectLatestMetrics(db);
  if (!latest) throw new Error("metrics row missing after upsert");
  return metricsView(latest);
}

// ---------------------------------------------------------------------------------------------
// Audit log.

export async function auditLog(db: Db): Promise<AuditEntry[]> {
  const rows = await q.selectAudit(db, ADMIN_LIMITS.auditLog);
  return rows.map((r) => ({
    id: r.id,
    actorEmail: r.actorEmail,
    action: r.action,
    target: r.target,
    detail: r.detail,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** An audit row for a staff action that names no account: `target` says what it acted on. */
export async function recordAudit(db: Db, actor: Staff, action: string, detail?: string, target?: string) {
  await q.insertAudit(db, actor, action, { target: target ?? null, detail: detail ?? null });
}

export const staffRole = (db: Db, userId: string) => q.findRole(db, userId);

/** When the metrics were last computed (the job or a button), for the health panel. */
export async function staffLatestMetricsRun(db: Db): Promise<Date | null> {
  return (await q.selectLatestMetrics(db))?.createdAt ?? null;
}
