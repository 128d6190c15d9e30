// The back office's reads and writes. Unlike every other module these cross tenants — each
// function's name says so (`all…`, `any…`) — and only admin.service.ts, behind the staff guard,
// calls them.
import { and, asc, count, desc, eq, gte, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../../../db/client.ts";
import {
  adminAuditLog,
  exchangeRates,
  session,
  subscriptions,
  supportTickets,
  systemMetrics,
  transactions,
  user,
  websiteAnalytics,
  websites,
} from "../../../db/schema/index.ts";
import {
  type Currency,
  sqlList,
  TICKET_PRIORITIES,
  type TicketPriority,
  type TicketStatus,
} from "../../../shared/enums.ts";
import type { UsersQuery } from "../../../shared/schemas/admin.ts";
import type { Staff } from "./staff.ts";

type Q = Db | Tx;

/** `%`, `_` and `\` in a search are literal characters, not patterns; case does not matter. */
const likeTerm = (raw: string) => `%${raw.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * Rows of real customers only: not the demo author or another seeded sample (ADR 045). Every
 * business figure goes through this; a row whose account was deleted (null) still counts.
 */
export const ofCustomers = (userId: AnyPgColumn): SQL =>
  sql`not exists (select 1 from "user" sample where sample.id = ${userId} and sample.is_sample)`;

/** A website's rows (traffic) for customers' sites only. */
const ofCustomerSites = (websiteId: AnyPgColumn): SQL =>
  sql`not exists (select 1 from websites sw join "user" sample on sample.id = sw.user_id where sw.id = ${websiteId} and sample.is_sample)`;

// ---------------------------------------------------------------------------------------------
// Accounts.

export async function findRole(db: Q, userId: string) {
  const [row] = await db
    .select({ role: user.role, banned: user.banned, email: user.email })
    .from(user)
    .where(eq(user.id, userId));
  return row ?? null;
}

/** Whether the site's custom domain is verified for its owner (only then is it the site's address). */
const customDomainVerified = sql<boolean>`exists (select 1 from domain_verifications dv where dv.user_id = ${websites.userId} and lower(dv.domain) = lower(${websites.customDomain}) and dv.verified)`;

function userFilters(query: UsersQuery): SQL | undefined {
  const where: SQL[] = [];
  if (query.q) {
    // Each side matches its own trigram index (lower(column) like …); an `or` across the joined
    // tables would read every row instead.
    const term = likeTerm(query.q);
    where.push(sql`${user.id} in (
      select u.id from "user" u where lower(u.name) like ${term} or lower(u.email) like ${term}
      union
      select w.user_id from websites w where lower(w.subdomain) like ${term})`);
  }
  if (query.status) where.push(eq(subscriptions.status, query.status));
  if (query.tier) where.push(eq(subscriptions.tier, query.tier));
  return where.length ? and(...where) : undefined;
}

export async function selectAllUsersPage(db: Q, query: UsersQuery) {
  const dir = query.order === "asc" ? asc : desc;
  const order =
    query.sort === "name"
      ? [dir(user.name), dir(user.id)]
      : query.sort === "email"
        ? [dir(user.email)]
        : [dir(user.createdAt), dir(user.id)];
  return db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      banned: user.banned,
      sample: user.sample,
      subdomain: websites.subdomain,
      websiteName: websites.websiteName,
      customDomain: websites.customDomain,
      customDomainVerified,
      tier: subscriptions.tier,
      status: subscriptions.status,
      /** Null until checkout (a card) completes: such a "trial" site shows 'Coming soon'. */
      providerSubscriptionId: subscriptions.providerSubscriptionId,
      currency: subscriptions.currency,
      trialEndsAt: subscriptions.trialEndsAt,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      joinedAt: user.createdAt,
    })
    .from(user)
    .leftJoin(websites, eq(websites.userId, user.id))
    .leftJoin(subscriptions, eq(subscriptions.userId, user.id))
    .where(userFilters(query))
    .orderBy(...order)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
}

export async function countAllUsers(db: Q, query: UsersQuery): Promise<number> {
  const filters = userFilters(query);
  if (!filters) {
    const [row] = await db.select({ n: count() }).from(user);
    return row?.n ?? 0;
  }
  const [row] = await db
    .select({ n: count() })
    .from(user)
    .leftJoin(websites, eq(websites.userId, user.id))
    .leftJoin(subscriptions, eq(subscriptions.userId, user.id))
    .where(filters);
  return row?.n ?? 0;
}

export async function findAnyUser(db: Q, userId: string) {
  const [row] = await db
    .select({ id: user.id, email: user.email, name: user.name, role: user.role, banned: user.banned })
    .from(user)
    .where(eq(user.id, userId));
  return row ?? null;
}

export async function setAnyUserRole(db: Q, userId: string, role: string) {
  await db.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, userId));
}

export async function setAnyUserBanned(db: Q, userId: string, banned: boolean, reason: string | null) {
  await db
    .update(user)
    .set({ banned, banReason: banned ? reason : null, banExpires: null, updatedAt: new Date() })
    .where(eq(user.id, userId));
  if (banned) await db.delete(session).where(eq(session.userId, userId));
}

/** Accounts signed in (or with a session refreshed) since `since`; signing out changes nothing. */
export async function countActiveUsersSince(db: Q, since: Date): Promise<number> {
  const [row] = await db.select({ n: count() }).from(user).where(gte(user.lastActiveAt, since));
  return row?.n ?? 0;
}

/** Customers' accounts (staff included, samples not). */
export async function countAllAccounts(db: Q): Promise<number> {
  const [row] = await db.select({ n: count() }).from(user).where(eq(user.sample, false));
  return row?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Money.

/** Payments (refunds negative) processed since `since`, in GBP minor units, and how many. */
export async function sumAllTransactionsSince(db: Q, since: Date) {
  const [row] = await db
    .select({
      gbpMinor: sql<string>`coalesce(sum(case when ${transactions.transactionType} = 'refund' then -abs(${transactions.amountGbpMinor}) else ${transactions.amountGbpMinor} end), 0)::text`,
      n: count(),
    })
    .from(transactions)
    .where(and(gte(transactions.processedAt, since), ofCustomers(transactions.userId)));
  return { gbpMinor: Number(row?.gbpMinor ?? 0), count: row?.n ?? 0 };
}

/** Paying subscriptions grouped by what they pay: tier, currency, add-on. */
export async function countAllPayingSubscriptions(db: Q) {
  return db
    .select({
      tier: subscriptions.tier,
      currency: subscriptions.currency,
      addon: subscriptions.customDomainAddon,
      n: count(),
    })
    .from(subscriptions)
    .where(and(eq(subscriptions.status, "active"), ofCustomers(subscriptions.userId)))
    .groupBy(subscriptions.tier, subscriptions.currency, subscriptions.customDomainAddon);
}

export async function countAllSubscriptionsByStatusAndTier(db: Q) {
  return (
    db
      .select({ status: subscriptions.status, tier: subscriptions.tier, n: count() })
      .from(subscriptions)
      // A trial whose checkout never completed (no card, the site still "Coming soon") is no
      // subscriber yet: it counts in no status and no tier.
      .where(
        and(
          ofCustomers(subscriptions.userId),
          sql`not (${subscriptions.status} = 'trial' and ${subscriptions.providerSubscriptionId} is null)`,
        ),
      )
      .groupBy(subscriptions.status, subscriptions.tier)
  );
}

export async function countAllChurnSince(db: Q, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(subscriptions)
    .where(
      and(
        sql`${subscriptions.status} in ('cancelled', 'expired')`,
        gte(subscriptions.updatedAt, since),
        ofCustomers(subscriptions.userId),
      ),
    );
  return row?.n ?? 0;
}

export async function countSignupsSince(db: Q, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(user)
    .where(and(gte(user.createdAt, since), eq(user.sample, false)));
  return row?.n ?? 0;
}

export async function selectRecentTransactions(db: Q, limit: number) {
  return db
    .select({
      id: transactions.id,
      tier: transactions.subscriptionTier,
      type: transactions.transactionType,
      processedAt: transactions.processedAt,
      currency: transactions.currency,
      amountMinor: transactions.amountMinor,
      amountGbpMinor: transactions.amountGbpMinor,
    })
    .from(transactions)
    .where(ofCustomers(transactions.userId))
    .orderBy(desc(transactions.processedAt), desc(transactions.id))
    .limit(limit);
}

export async function selectRates(db: Q) {
  return db
    .select({
      fromCurrency: exchangeRates.fromCurrency,
      toCurrency: exchangeRates.toCurrency,
      rate: sql<string>`${exchangeRates.rate}::text`,
      lastUpdated: exchangeRates.lastUpdated,
    })
    .from(exchangeRates)
    .orderBy(asc(exchangeRates.fromCurrency), asc(exchangeRates.toCurrency));
}

export async function updateRate(db: Q, from: Currency, to: Currency, rate: string): Promise<boolean> {
  const rows = await db
    .update(exchangeRates)
    .set({ rate: sql`${rate}::numeric` as unknown as number, lastUpdated: new Date() })
    .where(and(eq(exchangeRates.fromCurrency, from), eq(exchangeRates.toCurrency, to)))
    .returning({ from: exchangeRates.fromCurrency });
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Traffic.

export async function sumAllTrafficSince(db: Q, since: string) {
  const [row] = await db
    .select({
      pageViews: sql<number>`coalesce(sum(${websiteAnalytics.pageViews}), 0)::int`,
      uniqueVisitors: sql<number>`coalesce(sum(${websiteAnalytics.uniqueVisitors}), 0)::int`,
      activeWebsites: sql<number>`count(distinct ${websiteAnalytics.websiteId}) filter (where ${websiteAnalytics.pageViews} > 0)::int`,
    })
    .from(websiteAnalytics)
    .where(and(gte(websiteAnalytics.date, since), ofCustomerSites(websiteAnalytics.websiteId)));
  return row ?? { pageViews: 0, uniqueVisitors: 0, activeWebsites: 0 };
}

export async function selectTopWebsitesSince(db: Q, since: string, limit: number) {
  return db
    .select({
      websiteId: websites.id,
      subdomain: websites.subdomain,
      websiteName: websites.websiteName,
      customDomain: websites.customDomain,
      customDomainVerified,
      pageViews: sql<number>`sum(${websiteAnalytics.pageViews})::int`,
      uniqueVisitors: sql<number>`sum(${websiteAnalytics.uniqueVisitors})::int`,
    })
    .from(websiteAnalytics)
    .innerJoin(websites, eq(websites.id, websiteAnalytics.websiteId))
    .where(and(gte(websiteAnalytics.date, since), ofCustomers(websites.userId)))
    .groupBy(websites.id, websites.subdomain, websites.websiteName, websites.customDomain, websites.userId)
    .orderBy(desc(sql`sum(${websiteAnalytics.pageViews})`), asc(websites.subdomain))
    .limit(limit);
}

export async function selectDailyTrafficSince(db: Q, since: string) {
  return db
    .select({
      date: websiteAnalytics.date,
      pageViews: sql<number>`sum(${websiteAnalytics.pageViews})::int`,
      uniqueVisitors: sql<number>`sum(${websiteAnalytics.uniqueVisitors})::int`,
    })
    .from(websiteAnalytics)
    .where(and(gte(websiteAnalytics.date, since), ofCustomerSites(websiteAnalytics.websiteId)))
    .groupBy(websiteAnalytics.date)
    .orderBy(asc(websiteAnalytics.date));
}

// ---------------------------------------------------------------------------------------------
// Metrics.

export async function selectLatestMetrics(db: Q) {
  const [row] = await db.select().from(systemMetrics).orderBy(desc(systemMetrics.metricDate)).limit(1);
  return row ?? null;
}

export async function upsertMetrics(db: Q, values: typeof systemMetrics.$inferInsert) {
  const { metricDate: _date, ...rest } = values;
  await db
    .insert(systemMetrics)
    .values(values)
    .onConflictDoUpdate({ target: systemMetrics.metricDate, set: { ...rest, createdAt: new Date() } });
}

// ---------------------------------------------------------------------------------------------
// Support tickets.

/**
 * The queue: open tickets first, most urgent first and then the longest waiting; answered and
 * closed ones after them, newest first. (The nulls of the open-only keys sort last.)
 */
const isOpen = sql`${supportTickets.status} = 'open'`;
const ticketQueueOrder = [
  sql`case when ${isOpen} then 0 else 1 end`,
  // TICKET_PRIORITIES lists them most urgent first.
  sql`case when ${isOpen} then array_position(array[${sql.raw(sqlList(TICKET_PRIORITIES))}]::text[], ${supportTickets.priority}) end`,
  sql`case when ${isOpen} then ${supportTickets.createdAt} end asc`,
  desc(supportTickets.createdAt),
  desc(supportTickets.id),
];

export async function selectAllTickets(db: Q, filter: { status?: TicketStatus; priority?: TicketPriority }) {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(supportTickets.status, filter.status));
  if (filter.priority) where.push(eq(supportTickets.priority, filter.priority));
  return db
    .select()
    .from(supportTickets)
    .where(where.length ? and(...where) : undefined)
    .orderBy(...ticketQueueOrder)
    .limit(500);
}

export async function findAnyTicket(db: Q, ticketId: string, lock = false) {
  const base = db.select().from(supportTickets).where(eq(supportTickets.id, ticketId));
  const [row] = lock ? await base.for("update") : await base;
  return row ?? null;
}

export async function updateAnyTicket(db: Q, ticketId: string, values: Partial<typeof supportTickets.$inferInsert>) {
  await db.update(supportTickets).set(values).where(eq(supportTickets.id, ticketId));
}

export async function countOpenTickets(db: Q): Promise<number> {
  const [row] = await db.select({ n: count() }).from(supportTickets).where(eq(supportTickets.status, "open"));
  return row?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Audit log.

/** What the audit log says a staff action was about: the account, the thing acted on, details. */
type AuditAbout = Pick<typeof adminAuditLog.$inferInsert, "targetUserId" | "target" | "detail">;

/** One audit row: `actor` did `action`, to what `about` names. */
export async function insertAudit(db: Q, actor: Staff, action: string, about: AuditAbout = {}) {
  await db.insert(adminAuditLog).values({ actorId: actor.id, actorEmail: actor.email, action, ...about });
}

export async function selectAudit(db: Q, limit: number) {
  return db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id)).limit(limit);
}
