// Demo mode's sample figures: invented, typed by the real answers' schemas so the screens render
// them exactly as they would real ones, and never taken from anyone's data.
import type {
  Analytics,
  AuditEntry,
  Financial,
  Overview,
  SystemHealth,
  Ticket,
  UsersPage,
} from "../../../shared/schemas/admin.ts";

const today = new Date();
const day = (back: number) => new Date(today.getTime() - back * 864e5).toISOString();

export const DEMO_OVERVIEW: Overview = {
  revenueThisMonthGbpMinor: 184_230,
  activeUsers30d: 214,
  totalUsers: 356,
  openTickets: 3,
  latestMetrics: {
    metricDate: day(0).slice(0, 10),
    totalUsers: 356,
    newSignups: 4,
    monthlyRevenueGbpMinor: 184_230,
    paidUsers: 248,
    activeUsers: 214,
    trialUsers: 61,
    miniTierUsers: 140,
    midiTierUsers: 92,
    maxiTierUsers: 51,
    megaTierUsers: 26,
    churnCount: 5,
    createdAt: day(0),
  },
};

const demoUser = (i: number, name: string, tier: "mini" | "midi" | "maxi" | "mega", status: "trial" | "active") => ({
  id: `demo-${i}`,
  name,
  email: `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@example.com`,
  role: "user" as const,
  banned: false,
  subdomain: name.toLowerCase().replace(/[^a-z]+/g, ""),
  websiteName: `${name} Books`,
  customDomain: null,
  liveUrl: `https://${name.toLowerCase().replace(/[^a-z]+/g, "")}.bookplate.example/`,
  tier,
  status,
  checkoutCompleted: true,
  currency: "GBP" as const,
  trialEndsAt: status === "trial" ? day(-9) : null,
  currentPeriodEnd: status === "active" ? day(-20) : null,
  joinedAt: day(i * 11),
});

export const DEMO_USERS: UsersPage = {
  users: [
    demoUser(1, "Maya Thornton", "midi", "active"),
    demoUser(2, "Oliver Quill", "mini", "trial"),
    demoUser(3, "Priya Raman", "maxi", "active"),
    demoUser(4, "Samuel Okafor", "mega", "active"),
    demoUser(5, "Elena Marsh", "mini", "active"),
  ],
  total: 5,
  page: 1,
  pageSize: 25,
};

export const DEMO_FINANCIAL: Financial = {
  monthlyRevenueGbpMinor: 184_230,
  estimatedMrrGbpMinor: 171_402,
  activeSubscriptions: 248,
  transactionsThisMonth: 231,
  byTier: [
    { tier: "mini", name: "Mini", priceGbpMinor: 399, subscribers: 104, totalGbpMinor: 42_120 },
    { tier: "midi", name: "Midi", priceGbpMinor: 599, subscribers: 78, totalGbpMinor: 47_990 },
    { tier: "maxi", name: "Maxi", priceGbpMinor: 799, subscribers: 44, totalGbpMinor: 36_102 },
    { tier: "mega", name: "Mega", priceGbpMinor: 999, subscribers: 22, totalGbpMinor: 45_190 },
  ],
  byCurrency: [
    { currency: "GBP", subscribers: 121, mrrMinor: 73_420, mrrGbpMinor: 73_420 },
    { currency: "USD", subscribers: 88, mrrMinor: 72_110, mrrGbpMinor: 56_967 },
    { currency: "EUR", subscribers: 39, mrrMinor: 27_470, mrrGbpMinor: 23_350 },
  ],
  rates: [
    { fromCurrency: "AUD", toCurrency: "GBP", rate: "0.520000", lastUpdated: day(3) },
    { fromCurrency: "CAD", toCurrency: "GBP", rate: "0.570000", lastUpdated: day(3) },
    { fromCurrency: "EUR", toCurrency: "GBP", rate: "0.850000", lastUpdated: day(3) },
    { fromCurrency: "USD", toCurrency: "GBP", rate: "0.790000", lastUpdated: day(3) },
  ],
  recentTransactions: [
    {
      id: "t1",
      tier: "midi",
      type: "subscription_payment",
      processedAt: day(0),
      currency: "USD",
      amountMinor: 799,
      amountGbpMinor: 631,
    },
    {
      id: "t2",
      tier: "mini",
      type: "subscription_payment",
      processedAt: day(1),
      currency: "GBP",
      amountMinor: 399,
      amountGbpMinor: 399,
    },
    {
      id: "t3",
      tier: "mega",
      type: "subscription_payment",
      processedAt: day(1),
      currency: "EUR",
      amountMinor: 1199,
      amountGbpMinor: 1019,
    },
  ],
};

export const DEMO_ANALYTICS: Analytics = {
  days: 30,
  pageViews: 48_210,
  uniqueVisitors: 17_904,
  activeWebsites: 187,
  topWebsites: [
    {
      websiteId: "w1",
      subdomain: "mayathornton",
      liveUrl: "https://mayathornton.bookplate.example/",
      websiteName: "Maya Thornton Books",
      pageViews: 6120,
      uniqueVisitors: 2210,
    },
    {
      websiteId: "w2",
      subdomain: "priyaraman",
      liveUrl: "https://priyaraman.bookplate.example/",
      websiteName: "Priya Raman Books",
      pageViews: 4480,
      uniqueVisitors: 1702,
    },
    {
      websiteId: "w3",
      subdomain: "samuelokafor",
      liveUrl: "https://samuelokafor.bookplate.example/",
      websiteName: "Samuel Okafor Books",
      pageViews: 3010,
      uniqueVisitors: 1198,
    },
  ],
  visitorRatioPercent: 37.1,
  pagesPerVisitor: 2.69,
  daily: Array.from({ length: 30 }, (_, i) => ({
    date: day(29 - i).slice(0, 10),
    pageViews: 1200 + Math.round(500 * Math.sin(i / 3)) + i * 12,
    uniqueVisitors: 450 + Math.round(180 * Math.sin(i / 3)) + i * 4,
  })),
};

export const DEMO_TICKETS: Ticket[] = [
  {
    id: "demo-ticket-1",
    userId: "demo-2",
    name: "Oliver Quill",
    email: "oliver.quill@example.com",
    subject: "How do I connect my own domain?",
    message: "I bought oliverquill.com and want my site there.",
    priority: "normal",
    status: "open",
    adminResponse: null,
    respondedAt: null,
    createdAt: day(0),
    messages: [],
  },
  {
    id: "demo-ticket-2",
    userId: "demo-3",
    name: "Priya Raman",
    email: "priya.raman@example.com",
    subject: "Cover looks blurry",
    message: "My new cover looks soft on the book page.",
    priority: "high",
    status: "responded",
    adminResponse: "Upload at least 800 px wide and it will stay sharp.",
    respondedAt: day(1),
    createdAt: day(2),
    messages: [],
  },
];

export const DEMO_SYSTEM: SystemHealth = {
  checks: [
    { name: "Database", ok: true, detail: "PostgreSQL answered in 2 ms" },
    { name: "Mail", ok: true, detail: "SMTP server answered in 41 ms" },
    { name: "Mail outbox", ok: true, detail: "0 waiting, 0 failed in the last 24 hours" },
    { name: "File storage", ok: true, detail: "Wrote and removed a file in 3 ms" },
    { name: "Daily metrics job", ok: true, detail: "Last run today 00:05 UTC" },
  ],
  uptimeSeconds: 86_400 * 3,
  memory: { rssBytes: 180 * 1024 * 1024, heapUsedBytes: 70 * 1024 * 1024 },
};

export const DEMO_AUDIT: AuditEntry[] = [
  {
    id: "a1",
    actorEmail: "staff@example.com",
    action: "ticket_responded",
    target: "Ticket: Cover looks blurry",
    detail: null,
    createdAt: day(1),
  },
];
