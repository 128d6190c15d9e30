// The back office's figures and lists that staff act on (issue 29): active users survive a
// sign-out, the ticket queue puts the most urgent open ticket first, exchange rates stay in a
// sane range, an unpaid trial is told apart from a real one, and sites link to their live address.
import { and, eq, gte, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  adminAuditLog,
  domainVerifications,
  exchangeRates,
  session,
  subscriptions,
  supportTickets,
  user,
  websiteAnalytics,
  websites,
} from "../../../db/schema/index.ts";
import { TICKET_PRIORITIES } from "../../../shared/enums.ts";
import { RATE_OUT_OF_RANGE } from "../../../shared/schemas/admin.ts";
import { apiClient, expectStatus, readJson } from "../../../testing/api-client.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { cookiesFrom } from "../../../testing/test-server.ts";
import {
  createAuthor,
  createStaffUser,
  TEST_PASSWORD,
  type TestAuthor,
  type TestUser,
} from "../../../testing/users.ts";

startFileServer();
let boss: TestUser;
let paid: TestAuthor;
let unpaid: TestAuthor;

beforeAll(async () => {
  boss = await createStaffUser(s, "super_admin", { prefix: "boss" });
  paid = await createAuthor(s, { name: "Paid Author" });
  unpaid = await createAuthor(s, { name: "Unpaid Author", checkout: false });
});

/** The admin API as the super admin. */
const admin = () => apiClient(s, boss).admin;
const overview = () => expectStatus(admin().overview.$get(), 200);
const allUsers = () => expectStatus(admin().users.$get({ query: { pageSize: "100" } }), 200);
const DAY_MS = 864e5;

/** Accounts whose last activity is within 30 days, counted from the rows, not through the app. */
async function activeFromRows(): Promise<number> {
  const since = new Date(Date.now() - 30 * DAY_MS);
  return (await s.database.db.select().from(user).where(gte(user.lastActiveAt, since))).length;
}

describe("active users (30 days)", () => {
  it("counts accounts used in the last 30 days, and signing out does not change it", async () => {
    const everyone = await s.database.db.select({ id: user.id, lastActiveAt: user.lastActiveAt }).from(user);
    // Each account here signed in when it verified its email.
    expect(everyone.every((u) => u.lastActiveAt !== null)).toBe(true);
    const before = (await overview()).activeUsers30d;
    expect(before).toBe(everyone.length);
    expect(before).toBe(await activeFromRows());

    const out = await s.api("/api/auth/sign-out", { method: "POST", cookie: paid.cookie, json: {} });
    expect(out.status).toBe(200);
    expect(await s.database.db.select().from(session).where(eq(session.userId, paid.id))).toHaveLength(0);
    expect((await overview()).activeUsers30d).toBe(before);
    const { metrics } = (await readJson(apiClient(s, boss).admin.metrics.recalculate.$post())).body;
    expect(metrics.activeUsers).toBe(before);
  });

  it("drops an account unused for over 30 days, and counts it again when it signs in", async () => {
    const before = await activeFromRows();
    await s.database.db
      .update(user)
      .set({ lastActiveAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(user.id, unpaid.id));
    expect((await overview()).activeUsers30d).toBe(before - 1);

    const signIn = await s.api("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: unpaid.email, password: TEST_PASSWORD },
    });
    expect(signIn.status).toBe(200);
    expect(cookiesFrom(signIn)).toBeTruthy();
    const [row] = await s.database.db.select({ at: user.lastActiveAt }).from(user).where(eq(user.id, unpaid.id));
    expect(Date.now() - (row?.at?.getTime() ?? 0)).toBeLessThan(60_000);
    expect((await overview()).activeUsers30d).toBe(before);
  });

  it("counts a session kept in use: Better Auth's daily refresh stamps the account too", async () => {
    const old = new Date(Date.now() - 31 * DAY_MS);
    await s.database.db.update(user).set({ lastActiveAt: old }).where(eq(user.id, boss.id));
    // A session last refreshed two days ago (30-day sessions, refreshed after a day).
    await s.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() + 28 * DAY_MS) })
      .where(eq(session.userId, boss.id));
    expect((await s.api("/api/auth/get-session", { cookie: boss.cookie })).status).toBe(200);
    const [row] = await s.database.db.select({ at: user.lastActiveAt }).from(user).where(eq(user.id, boss.id));
    expect(Date.now() - (row?.at?.getTime() ?? 0)).toBeLessThan(60_000);
  });
});

describe("the support queue", () => {
  it("lists open tickets by priority, then the longest waiting; answered ones after them", async () => {
    // Rows as filed, in an order that sorting by date alone gets wrong (the urgent ones newest).
    const filed = (
      [
        ["low", 50],
        ["normal", 40],
        ["high", 30],
        ["urgent", 10],
        ["urgent", 20],
        ["normal", 5],
      ] as const
    ).map(([priority, ageMin]) => ({ priority, ageMin, subject: `${priority} ${ageMin}` }));
    const rows = await s.database.db
      .insert(supportTickets)
      .values(
        filed.map((t) => ({
          userId: unpaid.id,
          email: unpaid.email,
          subject: t.subject,
          message: "Please help",
          priority: t.priority,
          createdAt: new Date(Date.now() - t.ageMin * 60_000),
        })),
      )
      .returning({ id: supportTickets.id, subject: supportTickets.subject });
    const idOf = new Map(rows.map((r) => [r.subject, r.id]));
    const withIds = filed.map((t) => ({ ...t, id: idOf.get(t.subject) ?? "" }));
    // One answered a minute ago: newer than every open one, still listed after them.
    const answered = withIds[5];
    if (!answered) throw new Error("no ticket");
    const respond = await apiClient(s, boss).admin.tickets[":id"].respond.$post({
      param: { id: answered.id },
      json: { response: "Done." },
    });
    expect(respond.status).toBe(200);
    await s.database.db
      .update(supportTickets)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(supportTickets.id, answered.id));

    const rank = (p: string) => TICKET_PRIORITIES.indexOf(p as (typeof TICKET_PRIORITIES)[number]);
    const open = withIds
      .filter((t) => t.id !== answered.id)
      .sort((a, b) => rank(a.priority) - rank(b.priority) || b.ageMin - a.ageMin);
    const { tickets } = await expectStatus(admin().tickets.$get({ query: {} }), 200);
    expect(tickets.map((t) => t.id)).toEqual([...open.map((t) => t.id), answered.id]);
    expect(tickets[0]?.subject).toBe("urgent 20");

    const onlyOpen = await expectStatus(admin().tickets.$get({ query: { status: "open" } }), 200);
    expect(onlyOpen.tickets.map((t) => t.id)).toEqual(open.map((t) => t.id));
  });
});

describe("exchange rates", () => {
  const usd = async () => {
    const [row] = await s.database.db
      .select({ rate: sql<string>`${exchangeRates.rate}::text`, at: exchangeRates.lastUpdated })
      .from(exchangeRates)
      .where(and(eq(exchangeRates.fromCurrency, "USD"), eq(exchangeRates.toCurrency, "GBP")));
    return row;
  };
  const audits = async () =>
    (await s.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "exchange_rate_changed"))).length;

  it("refuses a rate outside 0.01–10 with a clear message and changes nothing", async () => {
    const before = await usd();
    const auditsBefore = await audits();
    for (const rate of ["1000000", "10.000001", "0.009", "0"]) {
      const res = await apiClient(s, boss).admin.rates[":currency"].$put({
        param: { currency: "USD" },
        json: { rate },
      });
      expect(res.status, rate).toBe(400);
      expect((await readJson(res)).body.error).toMatchObject({ field: "rate", message: RATE_OUT_OF_RANGE });
    }
    expect(await usd()).toEqual(before);
    expect(await audits()).toBe(auditsBefore);
  });

  it("takes a rate inside the range, at both ends", async () => {
    for (const rate of ["10", "0.01", "0.7912"]) {
      const res = await apiClient(s, boss).admin.rates[":currency"].$put({
        param: { currency: "USD" },
        json: { rate },
      });
      expect(res.status, rate).toBe(200);
      expect(Number((await usd())?.rate)).toBe(Number(rate));
    }
  });
});

describe("accounts and sites as staff see them", () => {
  it("tells an unpaid trial (checkout never completed) from a real one", async () => {
    const { users } = await allUsers();
    const byId = new Map(users.map((u: { id: string }) => [u.id, u]));
    expect(byId.get(paid.id)).toMatchObject({ status: "trial", checkoutCompleted: true });
    expect(byId.get(unpaid.id)).toMatchObject({ status: "trial", checkoutCompleted: false });
    // The staff account has no subscription at all.
    expect(byId.get(boss.id)).toMatchObject({ status: null, checkoutCompleted: false, liveUrl: null });

    // The daily figures count the trial with a card, not the one that never reached checkout.
    const rows = await s.database.db.select().from(subscriptions);
    const cardTrials = rows.filter((r) => r.status === "trial" && r.providerSubscriptionId !== null);
    expect(rows.some((r) => r.userId === unpaid.id && r.status === "trial")).toBe(true);
    const counted = rows.filter((r) => r.status !== "expired" && !(r.status === "trial" && !r.providerSubscriptionId));
    const res = await apiClient(s, boss).admin.metrics.recalculate.$post();
    const { metrics } = (await readJson(res)).body;
    expect(metrics.trialUsers).toBe(cardTrials.length);
    expect(metrics.miniTierUsers + metrics.midiTierUsers + metrics.maxiTierUsers + metrics.megaTierUsers).toBe(
      counted.length,
    );
  });

  it("links a site to its live address: the verified custom domain, else the subdomain", async () => {
    const sites = await s.database.db.select().from(websites);
    const paidSite = sites.find((w) => w.userId === paid.id);
    const unpaidSite = sites.find((w) => w.userId === unpaid.id);
    if (!paidSite || !unpaidSite) throw new Error("sites missing");
    const domain = `books-${paid.subdomain}.example`;
    // A verified domain for one site; the other claims one that is not verified yet.
    await s.database.db.update(websites).set({ customDomain: domain }).where(eq(websites.id, paidSite.id));
    await s.database.db
      .update(websites)
      .set({ customDomain: `pending-${unpaid.subdomain}.example` })
      .where(eq(websites.id, unpaidSite.id));
    await s.database.db.insert(domainVerifications).values([
      { userId: paid.id, domain, verificationToken: "t1", verified: true, verifiedAt: new Date() },
      { userId: unpaid.id, domain: `pending-${unpaid.subdomain}.example`, verificationToken: "t2" },
    ]);
    const today = new Date().toISOString().slice(0, 10);
    await s.database.db.insert(websiteAnalytics).values([
      { websiteId: paidSite.id, date: today, pageViews: 20, uniqueVisitors: 5 },
      { websiteId: unpaidSite.id, date: today, pageViews: 10, uniqueVisitors: 3 },
    ]);
    const subdomainUrl = (sub: string) => `http://${sub}.localhost:${s.port}/`;

    const a = await expectStatus(admin().analytics.$get(), 200);
    expect(a.topWebsites.map((w) => [w.websiteId, w.liveUrl])).toEqual([
      [paidSite.id, `http://${domain}/`],
      [unpaidSite.id, subdomainUrl(unpaid.subdomain)],
    ]);
    const { users } = await allUsers();
    const liveUrl = (id: string) => users.find((u) => u.id === id)?.liveUrl;
    expect(liveUrl(paid.id)).toBe(`http://${domain}/`);
    expect(liveUrl(unpaid.id)).toBe(subdomainUrl(unpaid.subdomain));
    // No address anywhere is the noindex preview.
    expect(JSON.stringify([a.topWebsites, users])).not.toContain("/author/");
  });
});
