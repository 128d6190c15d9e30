// The back office's inputs and answers (spec: Admin dashboard; constants: 30 days, top 8,
// 8 transactions, rates to 4 decimals). Money is integer minor units; GBP figures are converted
// with the stored exchange rates.
import { z } from "zod";
import {
  CURRENCIES,
  ROLES,
  SUBSCRIPTION_STATUSES,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  TIERS,
  TRANSACTION_TYPES,
} from "../enums.ts";
import { namedObject } from "./fragments.ts";
import { pageNumber } from "./paging.ts";
import { plainText } from "./text.ts";

export const ADMIN_TABS = ["overview", "users", "financial", "analytics", "support", "settings"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

/** The spec's constants. */
export const ADMIN_LIMITS = {
  analyticsDays: 30,
  topWebsites: 8,
  recentTransactions: 8,
  usersPageSize: 25,
  usersPageSizeMax: 100,
  auditLog: 50,
} as const;

export const ADMIN_MESSAGES = {
  metricsUpdated: "System metrics updated successfully",
  metricsFailed: "Failed to update metrics",
  userIdCopied: "User ID copied to clipboard!",
  commandCopied: "Command copied to clipboard!",
  sqlCopied: "SQL copied to clipboard!",
  noTickets: "No support tickets found.",
  responseRequired: "Please write a response",
  notStaff: "This needs the admin or super_admin role",
  superAdminOnly: "Only a super admin can do this",
} as const;

export const isStaffRole = (role: string | null | undefined): boolean => role === "admin" || role === "super_admin";

// ---------------------------------------------------------------------------------------------
// Access (any signed-in user may ask: it decides between the dashboard and demo mode).

export const adminAccessSchema = namedObject("AdminAccess", {
  staff: z.boolean(),
  role: z.enum(ROLES),
  userId: z.string(),
  email: z.string(),
});
export type AdminAccess = z.infer<typeof adminAccessSchema>;

// ---------------------------------------------------------------------------------------------
// Overview and metrics.

export const systemMetricsSchema = namedObject("SystemMetrics", {
  metricDate: z.string(),
  totalUsers: z.number(),
  newSignups: z.number(),
  monthlyRevenueGbpMinor: z.number(),
  paidUsers: z.number(),
  activeUsers: z.number(),
  trialUsers: z.number(),
  miniTierUsers: z.number(),
  midiTierUsers: z.number(),
  maxiTierUsers: z.number(),
  megaTierUsers: z.number(),
  churnCount: z.number(),
  createdAt: z.string(),
});
export type SystemMetrics = z.infer<typeof systemMetricsSchema>;

export const overviewSchema = namedObject("AdminOverview", {
  revenueThisMonthGbpMinor: z.number(),
  /** Accounts signed in, or whose session was refreshed, in the last 30 days (`user.last_active_at`). */
  activeUsers30d: z.number(),
  totalUsers: z.number(),
  openTickets: z.number(),
  latestMetrics: systemMetricsSchema.nullable(),
});
export type Overview = z.infer<typeof overviewSchema>;

// ---------------------------------------------------------------------------------------------
// Users.

export const USER_SORTS = ["joined", "name", "email"] as const;

export const usersQuerySchema = z.object({
  q: z.string().trim().max(200, { error: "Search is too long" }).optional(),
  status: z.enum(SUBSCRIPTION_STATUSES, { error: "Unknown status" }).optional(),
  tier: z.enum(TIERS, { error: "Unknown tier" }).optional(),
  sort: z.enum(USER_SORTS, { error: "Unknown sort" }).default("joined"),
  order: z.enum(["asc", "desc"], { error: "Order is asc or desc" }).default("desc"),
  page: pageNumber,
  pageSize: z.coerce
    .number({ error: "Page size must be a number" })
    .int({ error: "Page size must be a whole number" })
    .min(1, { error: "Page size must be at least 1" })
    .max(ADMIN_LIMITS.usersPageSizeMax, { error: `Page size is at most ${ADMIN_LIMITS.usersPageSizeMax}` })
    .default(ADMIN_LIMITS.usersPageSize),
});
export type UsersQuery = z.infer<typeof usersQuerySchema>;

export const adminUserSchema = namedObject("AdminUser", {
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  banned: z.boolean(),
  /** The demo author or another seeded sample: listed, never counted in a figure (ADR 045). */
  sample: z.boolean().optional(),
  subdomain: z.string().nullable(),
  websiteName: z.string().nullable(),
  customDomain: z.string().nullable(),
  /** The site's public address (verified custom domain, else the subdomain); null without a site. */
  liveUrl: z.string().nullable(),
  tier: z.enum(TIERS).nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES).nullable(),
  /**
   * False while the wizard's checkout never took a card: the subscription reads `trial` but
   * nothing will be charged and the site shows 'Coming soon'. Not a real trial.
   */
  checkoutCompleted: z.boolean(),
  currency: z.enum(CURRENCIES).nullable(),
  trialEndsAt: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  joinedAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const usersPageSchema = namedObject("AdminUsersPage", {
  users: z.array(adminUserSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type UsersPage = z.infer<typeof usersPageSchema>;

export const roleChangeSchema = z.strictObject({
  role: z.enum(ROLES, { error: "Role is user, admin or super_admin" }),
});
export const banSchema = z.strictObject({
  banned: z.boolean({ error: "banned must be true or false" }),
  reason: plainText(0, 500, "Reason").optional(),
});

// ---------------------------------------------------------------------------------------------
// Money.

export const exchangeRateSchema = namedObject("ExchangeRate", {
  fromCurrency: z.enum(CURRENCIES),
  toCurrency: z.enum(CURRENCIES),
  /** As stored (up to 6 decimals), a string so no digit is lost; shown to 4. */
  rate: z.string(),
  lastUpdated: z.string(),
});
export type ExchangeRate = z.infer<typeof exchangeRateSchema>;

/**
 * What one unit of a supported currency (USD, EUR, CAD, AUD) can sensibly be worth in GBP: each
 * has stayed well inside this for decades, so a rate outside it is a typo (1,000,000 for 0.79)
 * that would multiply every reported figure, not a market move.
 */
export const RATE_RANGE = { min: 0.01, max: 10 } as const;
export const RATE_OUT_OF_RANGE = `Rate must be between ${RATE_RANGE.min} and ${RATE_RANGE.max} (GBP for one unit of the currency)`;

export const rateUpdateSchema = z.strictObject({
  rate: z
    .string({ error: "Rate must be a decimal number" })
    .trim()
    .regex(/^\d{1,8}(\.\d{1,6})?$/, { error: "Rate must be a positive number with at most 6 decimals" })
    .refine((v) => Number(v) >= RATE_RANGE.min && Number(v) <= RATE_RANGE.max, { error: RATE_OUT_OF_RANGE }),
});

export const financialSchema = namedObject("AdminFinancial", {
  monthlyRevenueGbpMinor: z.number(),
  estimatedMrrGbpMinor: z.number(),
  activeSubscriptions: z.number(),
  transactionsThisMonth: z.number(),
  byTier: z.array(
    z.object({
      tier: z.enum(TIERS),
      name: z.string(),
      /** The plan's GBP price per month. */
      priceGbpMinor: z.number(),
      subscribers: z.number(),
      /** What those subscribers pay a month, in GBP (their own currencies converted). */
      totalGbpMinor: z.number(),
    }),
  ),
  byCurrency: z.array(
    z.object({
      currency: z.enum(CURRENCIES),
      subscribers: z.number(),
      mrrMinor: z.number(),
      mrrGbpMinor: z.number(),
    }),
  ),
  rates: z.array(exchangeRateSchema),
  recentTransactions: z.array(
    z.object({
      id: z.string(),
      tier: z.enum(TIERS),
      type: z.enum(TRANSACTION_TYPES),
      processedAt: z.string(),
      currency: z.enum(CURRENCIES),
      amountMinor: z.number(),
      amountGbpMinor: z.number(),
    }),
  ),
});
export type Financial = z.infer<typeof financialSchema>;

// ---------------------------------------------------------------------------------------------
// Traffic.

export const analyticsSchema = namedObject("AdminAnalytics", {
  days: z.number(),
  pageViews: z.number(),
  uniqueVisitors: z.number(),
  activeWebsites: z.number(),
  topWebsites: z.array(
    z.object({
      websiteId: z.string(),
      subdomain: z.string().nullable(),
      websiteName: z.string(),
      /** The public address readers use (not the `noindex` preview). */
      liveUrl: z.string().nullable(),
      pageViews: z.number(),
      uniqueVisitors: z.number(),
    }),
  ),
  /** Unique visitors per page view, as a percent (one decimal); null without views. */
  visitorRatioPercent: z.number().nullable(),
  /** Page views per unique visitor (two decimals); null without visitors. */
  pagesPerVisitor: z.number().nullable(),
  daily: z.array(z.object({ date: z.string(), pageViews: z.number(), uniqueVisitors: z.number() })),
});
export type Analytics = z.infer<typeof analyticsSchema>;

// ---------------------------------------------------------------------------------------------
// Support tickets (staff and authors see the same shape).

export const TICKET_LIMITS = { subject: 200, message: 10_000 } as const;

export const ticketMessageSchema = z.object({
  id: z.string(),
  fromStaff: z.boolean(),
  body: z.string(),
  createdAt: z.string(),
});

export const ticketSchema = namedObject("SupportTicket", {
  id: z.string(),
  userId: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  priority: z.enum(TICKET_PRIORITIES),
  status: z.enum(TICKET_STATUSES),
  adminResponse: z.string().nullable(),
  respondedAt: z.string().nullable(),
  createdAt: z.string(),
  messages: z.array(ticketMessageSchema),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketsQuerySchema = z.object({
  status: z.enum(TICKET_STATUSES, { error: "Unknown status" }).optional(),
  priority: z.enum(TICKET_PRIORITIES, { error: "Unknown priority" }).optional(),
});

export const newTicketSchema = z.strictObject({
  subject: z
    .string({ error: "Subject is required" })
    .trim()
    .min(1, { error: "Subject is required" })
    .pipe(plainText(1, TICKET_LIMITS.subject, "Subject")),
  message: z
    .string({ error: "Message is required" })
    .trim()
    .min(1, { error: "Message is required" })
    .max(TICKET_LIMITS.message, { error: `Message must be at most ${TICKET_LIMITS.message} characters` }),
  priority: z.enum(TICKET_PRIORITIES, { error: "Priority is urgent, high, normal or low" }).default("normal"),
});
export type NewTicket = z.infer<typeof newTicketSchema>;

const replyBody = z
  .string({ error: ADMIN_MESSAGES.responseRequired })
  .trim()
  .min(1, { error: ADMIN_MESSAGES.responseRequired })
  .max(TICKET_LIMITS.message, { error: `Response must be at most ${TICKET_LIMITS.message} characters` });

export const ticketResponseSchema = z.strictObject({ response: replyBody });
export const ticketReplySchema = z.strictObject({ message: replyBody });

// ---------------------------------------------------------------------------------------------
// System.

export const healthCheckSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  /** What was measured, in words (a round trip in ms, a job's last run). */
  detail: z.string(),
});

export const systemSchema = namedObject("AdminSystem", {
  checks: z.array(healthCheckSchema),
  uptimeSeconds: z.number(),
  memory: z.object({ rssBytes: z.number(), heapUsedBytes: z.number() }),
});
export type SystemHealth = z.infer<typeof systemSchema>;

export const auditEntrySchema = namedObject("AdminAuditEntry", {
  id: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

// ---------------------------------------------------------------------------------------------
// The marketing site's contact form: files a ticket for people without an account.

/** Bookplate's team speaking, not an author (the author sites' contact form says "I'll"). */
export const CONTACT_SENT = "Thank you for your message! We'll get back to you soon.";

export const marketingContactSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, { error: "Name is required" })
    .pipe(plainText(1, 200, "Name")),
  email: z
    .string({ error: "Please enter a valid email address" })
    .trim()
    .max(320, { error: "Please enter a valid email address" })
    .pipe(z.email({ error: "Please enter a valid email address" })),
  subject: z
    .string({ error: "Subject is required" })
    .trim()
    .min(1, { error: "Subject is required" })
    .pipe(plainText(1, TICKET_LIMITS.subject, "Subject")),
  message: z
    .string({ error: "Message is required" })
    .trim()
    .min(1, { error: "Message is required" })
    .max(TICKET_LIMITS.message, { error: `Message must be at most ${TICKET_LIMITS.message} characters` }),
});
export type MarketingContact = z.infer<typeof marketingContactSchema>;
