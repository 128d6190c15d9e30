// The back office: figures, accounts, tickets and system state across every tenant. Only the
// admin routes call this, and only after `requireStaff` read the caller's role from the database.
import type { Db, Tx } from "../../../db/client.ts";
import type { TicketPriority, TicketStatus } from "../../../shared/enums.ts";
import {
  CURRENCIES,
  type Currency,
  type Role,
  type SubscriptionStatus,
  TIERS,
  type Tier,
  type TransactionType,
} from "../../../shared/enums.ts";
import { CUSTOM_DOMAIN_ADDON_MINOR, MONTHLY_PRICE_MINOR, PLANS } from "../../../shared/plans.ts";
import {
  ADMIN_LIMITS,
  type AdminUser,
  type Analytics,
  type AuditEntry,
  type Financial,
  type Overview,
  type SystemMetrics,
  type Ticket,
  type UsersPage,
  type UsersQuery,
} from "../../../shared/schemas/admin.ts";
import { siteLiveUrl } from "../../../shared/site-address.ts";
import { conflictError, DomainError, forbiddenError, notFoundError } from "../../lib/domain-error.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import { addMessage, notifyTicketsChanged, ticketNotFound, ticketViews } from "../support/support.service.ts";
import * as q from "./admin.queries.ts";
import { convertMinor } from "./money.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export type Staff = { id: string; email: string; role: Role };

const startOfMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
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
    await q.insertAudit(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: "role_changed",
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
    await q.insertAudit(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: banned ? "user_banned" : "user_unbanned",
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
  await q.insertAudit(db, {
    actorId: actor.id,
    actorEmail: actor.email,
    action: "password_reset_sent",
    targetUserId: userId,
    target: target.email,
  });
  return target.email;
}

// ---------------------------------------------------------------------------------------------
// Money.

/** Rates to GBP as stored (GBP itself is 1); a currency without a row cannot be reported. */
async function ratesToGbp(db: Db) {
  const rows = await q.selectRates(db);
  const toGbp = new Map<string, string>([["GBP", "1"]]);
  for (const r of rows) if (r.toCurrency === "GBP") toGbp.set(r.fromCurrency, r.rate);
  return { rows, toGbp };
}

/**
 * Payments booked this calendar month (UTC), refunds negative, from customers only (ADR 045):
 * `gbpMinor` and how many. What Monthly Revenue and "Revenue this month" show.
 */
export function monthRevenue(db: Db | Tx, now = new Date()) {
  return q.sumAllTransactionsSince(db, startOfMonth(now));
}

/**
 * Customers' active subscriptions and what they pay a month (plan + add-on in their currency,
 * converted with the stored rates): by plan, by currency, the estimated MRR and the count.
 */
export async function activeSubscriptions(db: Db) {
  const { rows: rates, toGbp } = await ratesToGbp(db);
  const gbp = (minor: number, currency: string) => convertMinor(minor, toGbp.get(currency) ?? "0");
  const paying = await q.countAllPayingSubscriptions(db);

  const byTier = new Map<Tier, { subscribers: number; totalGbpMinor: number }>(
    TIERS.map((t) => [t, { subscribers: 0, totalGbpMinor: 0 }]),
  );
  const byCurrency = new Map<Currency, { subscribers: number; mrrMinor: number }>(
    CURRENCIES.map((c) => [c, { subscribers: 0, mrrMinor: 0 }]),
  );
  for (const g of paying) {
    const tier = g.tier as Tier;
    const currency = g.currency as Currency;
    // What one subscriber of this group pays a month, in their currency (integers throughout).
    const each = MONTHLY_PRICE_MINOR[tier][currency] + (g.addon ? CUSTOM_DOMAIN_ADDON_MINOR[currency] : 0);
    const t = byTier.get(tier);
    if (t) {
      t.subscribers += g.n;
      t.totalGbpMinor += gbp(each * g.n, currency);
    }
    const c = byCurrency.get(currency);
    if (c) {
      c.subscribers += g.n;
      c.mrrMinor += each * g.n;
    }
  }
  const currencies = [...byCurrency.entries()].map(([currency, c]) => ({
    currency,
    subscribers: c.subscribers,
    mrrMinor: c.mrrMinor,
    mrrGbpMinor: gbp(c.mrrMinor, currency),
  }));
  return {
    rates,
    estimatedMrrGbpMinor: currencies.reduce((sum, c) => sum + c.mrrGbpMinor, 0),
    count: currencies.reduce((sum, c) => sum + c.subscribers, 0),
    byTier: [...byTier.entries()].map(([tier, t]) => ({
      tier,
      name: PLANS[tier].name,
      priceGbpMinor: MONTHLY_PRICE_MINOR[tier].GBP,
      subscribers: t.subscribers,
      totalGbpMinor: t.totalGbpMinor,
    })),
    byCurrency: currencies,
  };
}

export async function financial(db: Db, now = new Date()): Promise<Financial> {
  const { rates, estimatedMrrGbpMinor, count, byTier, byCurrency } = await activeSubscriptions(db);
  const month = await monthRevenue(db, now);
  const recent = await q.selectRecentTransactions(db, ADMIN_LIMITS.recentTransactions);
  return {
    monthlyRevenueGbpMinor: month.gbpMinor,
    estimatedMrrGbpMinor,
    activeSubscriptions: count,
    transactionsThisMonth: month.count,
    byTier,
    byCurrency,
    rates: rates.map((r) => ({
      fromCurrency: r.fromCurrency as Currency,
      toCurrency: r.toCurrency as Currency,
      rate: r.rate,
      lastUpdated: r.lastUpdated.toISOString(),
    })),
    recentTransactions: recent.map((t) => ({
      id: t.id,
      tier: t.tier as Tier,
      type: t.type as TransactionType,
      processedAt: t.processedAt.toISOString(),
      currency: t.currency as Currency,
      amountMinor: t.amountMinor,
      amountGbpMinor: t.amountGbpMinor,
    })),
  };
}

export async function setRate(db: Db, actor: Staff, from: Currency, rate: string) {
  if (actor.role !== "super_admin") throw forbiddenError("Only a super admin can change exchange rates");
  if (from === "GBP") throw new DomainError("validation_failed", "GBP to GBP is always 1", { field: "currency" });
  await db.transaction(async (tx) => {
    if (!(await q.updateRate(tx, from, "GBP", rate))) throw notFoundError("No such exchange rate");
    await q.insertAudit(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: "exchange_rate_changed",
      target: `${from}→GBP`,
      detail: rate,
    });
  });
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
// Support.

export async function allTickets(db: Db, filter: { status?: TicketStatus; priority?: TicketPriority }) {
  return ticketViews(db, await q.selectAllTickets(db, filter));
}

export const openTicketCount = (db: Db) => q.countOpenTickets(db);

type TicketChange = { ticket: Ticket; notify?: { to: string; subject: string; text: string } };

/** Respond is allowed only from open (the spec); the author is mailed the answer. */
export async function respondToTicket(
  db: Db,
  actor: Staff,
  ticketId: string,
  response: string,
  appOrigin: string,
): Promise<TicketChange> {
  return db.transaction(async (tx) => {
    const ticket = await q.findAnyTicket(tx, ticketId, true);
    if (!ticket) throw ticketNotFound();
    if (ticket.status !== "open") {
      throw conflictError("Only an open ticket can be answered; reopen it first");
    }
    const respondedAt = new Date();
    await q.updateAnyTicket(tx, ticketId, {
      status: "responded",
      adminResponse: response,
      respondedAt,
      respondedBy: actor.id,
    });
    await addMessage(tx, ticketId, { staff: true, userId: actor.id }, response);
    await q.insertAudit(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: "ticket_responded",
      targetUserId: ticket.userId,
      target: `Ticket: ${ticket.subject}`,
    });
    await notifyTicketsChanged(tx);
    const [view] = await ticketViews(tx, [{ ...ticket, status: "responded", adminResponse: response, respondedAt }]);
    if (!view) throw new Error("ticket view missing");
    const where = ticket.userId
      ? `Read it and reply in your dashboard: ${appOrigin}/dashboard/help`
      : "Reply to this email to continue the conversation.";
    // A ticket from the marketing form names an address nobody confirmed: the answer carries
    // only staff's words there, not the sender's name or subject (ADR 048).
    const theirs = ticket.userId !== null;
    return {
      ticket: view,
      notify: {
        to: ticket.email,
        subject: theirs ? `Re: ${ticket.subject}` : "Bookplate support answered your message",
        text: theirs
          ? `Hello${ticket.name ? ` ${ticket.name}` : ""},\n\nOur support team answered your request "${ticket.subject}":\n\n${response}\n\n${where}\n`
          : `Hello,\n\nOur support team answered the message you sent through the contact form on our website:\n\n${response}\n\n${where}\n`,
      },
    };
  });
}

/** Close (unless already closed) or reopen (from closed). */
export async function setTicketStatus(db: Db, actor: Staff, ticketId: string, action: "close" | "reopen") {
  return db.transaction(async (tx): Promise<TicketChange> => {
    const ticket = await q.findAnyTicket(tx, ticketId, true);
    if (!ticket) throw ticketNotFound();
    if (action === "close" && ticket.status === "closed") {
      throw conflictError("This ticket is already closed");
    }
    if (action === "reopen" && ticket.status !== "closed") {
      throw conflictError("Only a closed ticket can be reopened");
    }
    const status = action === "close" ? "closed" : "open";
    await q.updateAnyTicket(tx, ticketId, { status });
    await q.insertAudit(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: action === "close" ? "ticket_closed" : "ticket_reopened",
      targetUserId: ticket.userId,
      target: `Ticket: ${ticket.subject}`,
    });
    await notifyTicketsChanged(tx);
    const [view] = await ticketViews(tx, [{ ...ticket, status }]);
    if (!view) throw new Error("ticket view missing");
    return { ticket: view };
  });
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
  await q.insertAudit(db, {
    actorId: actor.id,
    actorEmail: actor.email,
    action,
    target: target ?? null,
    detail: detail ?? null,
  });
}

export const staffRole = (db: Db, userId: string) => q.findRole(db, userId);

/** When the metrics were last computed (the job or a button), for the health panel. */
export async function staffLatestMetricsRun(db: Db): Promise<Date | null> {
  return (await q.selectLatestMetrics(db))?.createdAt ?? null;
}
