// The back office's business figures on a sandbox install with the real demo seed: the demo
// author is listed but never counted, and sandbox billing books what Stripe would have charged
// (trial conversion, renewals, plan changes, the custom-domain add-on, a returning subscriber).
// Every figure is checked against sums this file works out from what it did, with prices from
// the shared price table and the rates read from the rates table (ADR 045).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  exchangeRates,
  subscriptions,
  transactions,
  user,
  websiteAnalytics,
  websites,
} from "../../../db/schema/index.ts";
import { DEMO_EMAIL } from "../../../db/seed/demo.ts";
import type { Currency, Tier } from "../../../shared/enums.ts";
import {
  CUSTOM_DOMAIN_ADDON_MINOR as ADDON,
  formatMoney,
  MONTHLY_PRICE_MINOR as PRICE,
} from "../../../shared/plans.ts";
import { putRate } from "../../../testing/admin.ts";
import { apiClient, expectStatus, readJson } from "../../../testing/api-client.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import {
  completeSandboxCheckout,
  createAuthor,
  createSignedInUser,
  createStaffUser,
  type TestUser,
} from "../../../testing/users.ts";
import { runDailyMetrics } from "../../jobs/daily-metrics.job.ts";
import { runSubscriptionExpiry } from "../../jobs/subscription-expiry.job.ts";
import { changePlan } from "../billing/billing.service.ts";
import { sandboxProvider } from "../billing/provider.ts";

const DAY = 864e5;
let s: TestServer;
let boss: TestUser;

beforeAll(async () => {
  s = await startTestServer({ SEED_DEMO: "true" });
  boss = await createStaffUser(s, "super_admin", { prefix: "figures-boss" });
});
afterAll(async () => {
  await s?.close();
});

/** The admin API as the super admin; `ok` reads an answer that must be 200. */
const admin = () => apiClient(s, boss).admin;
const ok = async (res: Promise<Response>) => {
  const r = await readJson(res);
  expect(r.status).toBe(200);
  return r.body;
};

/** GBP minor units for `minor` at a decimal `rate`, rounded half away from zero (worked out here in micro-units). */
function gbpOf(minor: number, rate: string): number {
  const [whole = "0", frac = ""] = rate.split(".");
  const micros = BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, "0").slice(0, 6));
  return Number((BigInt(minor) * micros + 500_000n) / 1_000_000n);
}

async function ratesNow(): Promise<Record<Currency, string>> {
  const rows = await s.database.db.select().from(exchangeRates).where(eq(exchangeRates.toCurrency, "GBP"));
  const out: Record<string, string> = { GBP: "1" };
  for (const r of rows) out[r.fromCurrency] = String(r.rate);
  return out as Record<Currency, string>;
}

/** An author on `tier` in `currency` (with an own domain: the add-on), through the sandbox card. */
const author = (tier: Tier, currency: Currency, opts: { ownDomain?: boolean; checkout?: boolean } = {}) =>
  createAuthor(s, { tier, currency, prefix: "figures", ...opts });

const billing = (who: { cookie: string }) => apiClient(s, who).billing;

describe("a fresh install with the demo author", () => {
  it("shows no money, no subscriptions and no paying users; the demo is listed and labelled", async () => {
    const [demoSite] = await s.database.db
      .select({ id: websites.id, userId: websites.userId })
      .from(websites)
      .where(eq(websites.subdomain, "demo"));
    expect(demoSite).toBeDefined();
    // The demo's own subscription is the seed's (mega, active), the row that once read as £9.99 MRR.
    const [demoSub] = await s.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, demoSite?.userId ?? ""));
    expect(demoSub).toMatchObject({ tier: "mega", status: "active" });

    const f = await ok(admin().financial.$get());
    expect(f).toMatchObject({
      monthlyRevenueGbpMinor: 0,
      estimatedMrrGbpMinor: 0,
      activeSubscriptions: 0,
      transactionsThisMonth: 0,
      recentTransactions: [],
    });
    for (const t of f.byTier) expect(t).toMatchObject({ subscribers: 0, totalGbpMinor: 0 });
    for (const c of f.byCurrency) expect(c).toMatchObject({ subscribers: 0, mrrMinor: 0, mrrGbpMinor: 0 });

    expect(await runDailyMetrics(s.database.db)).toBe(true);
    const o = await ok(admin().overview.$get());
    // The only account besides the demo is the super admin this file signed up.
    expect(o).toMatchObject({ revenueThisMonthGbpMinor: 0, totalUsers: 1, openTickets: 0 });
    expect(o.latestMetrics).toMatchObject({
      totalUsers: 1,
      newSignups: 1,
      monthlyRevenueGbpMinor: 0,
      paidUsers: 0,
      trialUsers: 0,
      miniTierUsers: 0,
      midiTierUsers: 0,
      maxiTierUsers: 0,
      megaTierUsers: 0,
      churnCount: 0,
    });

    const users = await ok(admin().users.$get({ query: { q: DEMO_EMAIL } }));
    expect(users.users).toHaveLength(1);
    expect(users.users[0]).toMatchObject({ email: DEMO_EMAIL, sample: true, subdomain: "demo" });
    const me = await ok(admin().users.$get({ query: { q: boss.email } }));
    expect(me.users[0]).toMatchObject({ email: boss.email, sample: false });
  });

  it("an install seeded before the mark has its demo marked by the migration", async () => {
    const dir = join(import.meta.dirname, "../../../db/migrations");
    const statement = readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .flatMap((f) => readFileSync(join(dir, f), "utf8").split("--> statement-breakpoint"))
      .find((st) => st.includes(`SET "is_sample" = true`));
    expect(statement).toBeDefined();
    await s.database.db.update(user).set({ sample: false }).where(eq(user.email, DEMO_EMAIL));
    await s.database.db.execute(sql.raw(statement ?? ""));
    const marked = await s.database.db.select({ email: user.email }).from(user).where(eq(user.sample, true));
    expect(marked).toEqual([{ email: DEMO_EMAIL }]);
  });

  it("cannot be claimed by a user: the sample mark is the seed's alone", async () => {
    const email = `forger-${Date.now()}@example.com`;
    const signUp = await s.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "Forger", email, password: "correct horse battery", sample: true, isSample: true, is_sample: true },
    });
    const made = await s.database.db.select().from(user).where(eq(user.email, email));
    // Refused outright, or made as an ordinary account.
    expect(made.every((u) => u.sample === false)).toBe(true);
    expect([200, 400]).toContain(signUp.status);
    const u = await createSignedInUser(s, { prefix: "forger" });
    const update = await s.api("/api/auth/update-user", {
      method: "POST",
      cookie: u.cookie,
      json: { sample: true, is_sample: true },
    });
    expect(update.status).toBeLessThan(500);
    const [row] = await s.database.db.select().from(user).where(eq(user.id, u.id));
    expect(row?.sample).toBe(false);
    // Out of the way of the counts below.
    await s.database.db.delete(user).where(eq(user.email, email));
    await s.database.db.delete(user).where(eq(user.id, u.id));
  });

  it("leaves the demo site's traffic out of the analytics", async () => {
    const a = await author("mini", "GBP");
    const [demoSite] = await s.database.db.select().from(websites).where(eq(websites.subdomain, "demo"));
    const [site] = await s.database.db.select().from(websites).where(eq(websites.subdomain, a.subdomain));
    const today = new Date().toISOString().slice(0, 10);
    await s.database.db.insert(websiteAnalytics).values([
      { websiteId: demoSite?.id ?? "", date: today, pageViews: 500, uniqueVisitors: 300 },
      { websiteId: site?.id ?? "", date: today, pageViews: 7, uniqueVisitors: 3 },
    ]);
    const an = await ok(admin().analytics.$get());
    expect(an).toMatchObject({ pageViews: 7, uniqueVisitors: 3, activeWebsites: 1 });
    expect(an.topWebsites.map((w: { subdomain: string }) => w.subdomain)).toEqual([a.subdomain]);
    expect(an.daily.at(-1)).toMatchObject({ date: today, pageViews: 7, uniqueVisitors: 3 });
    // This author is on a trial: no money yet. Leave the slate clean for the next test.
    await s.database.db.delete(websiteAnalytics);
    await billing(a).cancel.$post();
  });
});

describe("sandbox billing books what Stripe would charge", () => {
  it("counts trial conversions, renewals, plan changes, the add-on and a returning subscriber", async () => {
    // A super admin sets one rate by hand; the rest keep their stored defaults.
    const rate = await putRate(s, boss, "EUR", "0.8612");
    expect(rate.status).toBe(200);

    const now = Date.now();
    const a = await author("midi", "GBP"); // upgrades to Maxi during the trial
    const b = await author("maxi", "USD", { ownDomain: true }); // add-on from the start
    const c = await author("mega", "EUR"); // downgrades to Mini after paying for Mega
    const d = await author("mini", "AUD"); // adds a custom domain after paying
    const e = await author("midi", "CAD"); // cancels the trial, comes back later and pays at once
    const f = await author("mini", "GBP", { checkout: false }); // never enters a card
    const g = await author("maxi", "GBP"); // pays once, then cancels
    void f;

    // During a trial a plan change costs nothing now; the trial's end charges the new plan.
    expect((await billing(a)["change-plan"].$post({ json: { tier: "maxi" } })).status).toBe(200);
    expect((await billing(e).cancel.$post()).status).toBe(200);

    // Day 15: every trial has ended.
    const t1 = new Date(now + 15 * DAY);
    const first = await runSubscriptionExpiry(s.database.db, t1);
    expect(first).toMatchObject({ trialsConverted: 5, sandboxRenewals: 0 });

    // After paying: C moves down to Mini, D adds a domain, G cancels, E (expired) pays again.
    // Seen from the day the server really is on, each change covers the whole first period, so
    // Stripe's proration is the whole difference in price.
    expect((await billing(c)["change-plan"].$post({ json: { tier: "mini" } })).status).toBe(200);
    const domain = await apiClient(s, d).domain.$put({ json: { domain: `${d.subdomain}-books.net` } });
    expect(domain.status).toBe(200);
    expect((await billing(g).cancel.$post()).status).toBe(200);
    const { checkoutUrl } = await expectStatus(billing(e).reactivate.$post(), 200);
    if (!checkoutUrl) throw new Error("an expired subscription comes back through checkout");
    // The checkout page says so: no trial this time, billing starts today.
    const again = new URL(checkoutUrl);
    const pageText = await (await s.api(`${again.pathname}${again.search}`, { cookie: e.cookie })).text();
    expect(pageText).toContain("billing starts today");
    expect(pageText).not.toContain("free trial —");
    await completeSandboxCheckout(s, e.cookie, checkoutUrl);

    // Each author's portal says what comes next: D the add-on twice, C nothing (Mega's credit).
    const portal = async (cookie: string) => (await s.api("/billing/sandbox/portal", { cookie })).text();
    expect(await portal(d.cookie)).toContain(
      `Next payment: <strong>${formatMoney(PRICE.mini.AUD + 2 * ADDON.AUD, "AUD")}`,
    );
    expect(await portal(c.cookie)).toContain("nothing to pay (your credit covers it)");

    // Day 47: one renewal each for A, B, C, D and E (whose new period began on the day it paid); G ends.
    const t2 = new Date(now + 47 * DAY);
    expect(await runSubscriptionExpiry(s.database.db, t2)).toMatchObject({ sandboxRenewals: 5, cancelledExpired: 1 });
    // Running again the same day charges nothing more.
    expect(await runSubscriptionExpiry(s.database.db, t2)).toMatchObject({ trialsConverted: 0, sandboxRenewals: 0 });

    // What this file expects each author to have paid, in their own currency.
    const aud = (minor: number) => ({ currency: "AUD" as const, minor });
    const charges: { who: string; currency: Currency; minor: number }[] = [
      { who: "a", currency: "GBP", minor: PRICE.maxi.GBP },
      { who: "a", currency: "GBP", minor: PRICE.maxi.GBP },
      { who: "b", currency: "USD", minor: PRICE.maxi.USD + ADDON.USD },
      { who: "b", currency: "USD", minor: PRICE.maxi.USD + ADDON.USD },
      // Mega's first month; the renewal's Mini price is more than covered by the credit for
      // Mega's unused month, so nothing is charged and the rest is carried.
      { who: "c", currency: "EUR", minor: PRICE.mega.EUR },
      { who: "d", ...aud(PRICE.mini.AUD) },
      // Mini and the add-on for the new month, plus the add-on for the month already paid.
      { who: "d", ...aud(PRICE.mini.AUD + 2 * ADDON.AUD) },
      { who: "e", currency: "CAD", minor: PRICE.midi.CAD },
      { who: "e", currency: "CAD", minor: PRICE.midi.CAD },
      { who: "g", currency: "GBP", minor: PRICE.maxi.GBP },
    ];
    expect(PRICE.mini.EUR * 2 - PRICE.mega.EUR).toBeLessThan(0);
    const ids = { a: a.id, b: b.id, c: c.id, d: d.id, e: e.id, g: g.id } as Record<string, string>;

    // The rows themselves: one per charge, each with its owner.
    const rows = await s.database.db.select().from(transactions);
    const byOwner = (id: string) => rows.filter((r) => r.userId === id).map((r) => r.amountMinor);
    for (const [who, id] of Object.entries(ids)) {
      expect(byOwner(id).sort(), who).toEqual(
        charges
          .filter((x) => x.who === who)
          .map((x) => x.minor)
          .sort(),
      );
    }
    expect(rows).toHaveLength(charges.length);
    const [cSub] = await s.database.db.select().from(subscriptions).where(eq(subscriptions.userId, c.id));
    expect(cSub?.sandboxBalanceMinor).toBe(PRICE.mini.EUR * 2 - PRICE.mega.EUR);

    const rates = await ratesNow();
    expect(Number(rates.EUR)).toBe(0.8612);
    const revenue = charges.reduce((sum, x) => sum + gbpOf(x.minor, rates[x.currency]), 0);

    // Who is paying now, and what a month of them comes to.
    const active: { tier: Tier; currency: Currency; addon: boolean }[] = [
      { tier: "maxi", currency: "GBP", addon: false }, // a
      { tier: "maxi", currency: "USD", addon: true }, // b
      { tier: "mini", currency: "EUR", addon: false }, // c
      { tier: "mini", currency: "AUD", addon: true }, // d
      { tier: "midi", currency: "CAD", addon: false }, // e
    ];
    const monthly = (x: (typeof active)[number]) => PRICE[x.tier][x.currency] + (x.addon ? ADDON[x.currency] : 0);
    const mrr = active.reduce((sum, x) => sum + gbpOf(monthly(x), rates[x.currency]), 0);

    const fin = await ok(admin().financial.$get());
    expect(fin.monthlyRevenueGbpMinor).toBe(revenue);
    expect(fin.transactionsThisMonth).toBe(charges.length);
    expect(fin.estimatedMrrGbpMinor).toBe(mrr);
    expect(fin.activeSubscriptions).toBe(active.length);
    for (const t of fin.byTier) {
      const mine = active.filter((x) => x.tier === t.tier);
      expect(t, t.tier).toMatchObject({
        subscribers: mine.length,
        totalGbpMinor: mine.reduce((sum, x) => sum + gbpOf(monthly(x), rates[x.currency]), 0),
        priceGbpMinor: PRICE[t.tier as Tier].GBP,
      });
    }
    for (const cur of fin.byCurrency) {
      const mine = active.filter((x) => x.currency === cur.currency);
      const minor = mine.reduce((sum, x) => sum + monthly(x), 0);
      expect(cur, cur.currency).toMatchObject({
        subscribers: mine.length,
        mrrMinor: minor,
        mrrGbpMinor: gbpOf(minor, rates[cur.currency as Currency]),
      });
    }
    expect(fin.recentTransactions).toHaveLength(8);
    for (const t of fin.recentTransactions) {
      expect(charges.some((x) => x.currency === t.currency && x.minor === t.amountMinor)).toBe(true);
      expect(t.amountGbpMinor).toBe(gbpOf(t.amountMinor, rates[t.currency as Currency]));
    }

    // The daily rollup, on the day the server is really on. Accounts: the boss, the author the
    // analytics test made, and the seven here (the demo is not one of them).
    expect(await runDailyMetrics(s.database.db)).toBe(true);
    const o = await ok(admin().overview.$get());
    expect(o.revenueThisMonthGbpMinor).toBe(revenue);
    expect(o.totalUsers).toBe(9);
    expect(o.activeUsers30d).toBe(9);
    expect(o.latestMetrics).toMatchObject({
      totalUsers: 9,
      newSignups: 9,
      monthlyRevenueGbpMinor: revenue,
      paidUsers: active.length,
      trialUsers: 0,
      // Every subscription still live (not expired): the five paying ones.
      miniTierUsers: 2,
      midiTierUsers: 1,
      maxiTierUsers: 2,
      megaTierUsers: 0,
      // F's trial ran out, G's cancellation ended, and the analytics test's author cancelled and expired.
      churnCount: 3,
    });
  });

  it("prorates a change in the middle of a paid month onto the next invoice, as Stripe does", async () => {
    const u = await author("midi", "GBP");
    const start = Date.now();
    await runSubscriptionExpiry(s.database.db, new Date(start + 15 * DAY));
    const status = (await readJson(apiClient(s, u).subscription.status.$get())).body;
    expect(status.status).toBe("active");
    const end = new Date(status.currentPeriodEnd);
    // The month before the period's end, the way a calendar counts it.
    const begin = new Date(end);
    begin.setUTCMonth(begin.getUTCMonth() - 1);
    if (begin.getUTCDate() !== end.getUTCDate()) begin.setUTCDate(0);
    const at = new Date(end.getTime() - 10 * DAY - 3_600_000);
    await changePlan(s.database.db, sandboxProvider(s.url), u.id, "mega", at);

    const left = end.getTime() - at.getTime();
    const period = end.getTime() - begin.getTime();
    const part = (minor: number) => Math.round((minor * left) / period);
    const expected = PRICE.mega.GBP + part(PRICE.mega.GBP) - part(PRICE.midi.GBP);
    await runSubscriptionExpiry(s.database.db, new Date(end.getTime() + 1000));
    const paid = await s.database.db
      .select({ minor: transactions.amountMinor, tier: transactions.subscriptionTier })
      .from(transactions)
      .where(eq(transactions.userId, u.id));
    expect(paid.map((p) => p.minor).sort((x, y) => x - y)).toEqual([PRICE.midi.GBP, expected].sort((x, y) => x - y));
    expect(paid.find((p) => p.minor === expected)?.tier).toBe("mega");
  });

  it("the monthly CSV reports list customers' rows only, never the demo's", async () => {
    const now = new Date();
    const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const csvLines = async (kind: "revenue" | "subscriptions") => {
      const res = await admin().reports[":kind"].$get({ param: { kind }, query: { month } });
      expect(res.status).toBe(200);
      const lines = (await res.text())
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .filter(Boolean);
      return lines.slice(1); // the header
    };
    const samples = new Set(
      (await s.database.db.select({ id: user.id }).from(user).where(eq(user.sample, true))).map((r) => r.id),
    );
    expect(samples.size).toBe(1);
    const subs = (await s.database.db.select().from(subscriptions)).filter(
      (r) => !samples.has(r.userId) && r.createdAt < to,
    );
    const paid = (await s.database.db.select().from(transactions)).filter(
      (r) => !(r.userId && samples.has(r.userId)) && r.processedAt >= from && r.processedAt < to,
    );
    const subLines = await csvLines("subscriptions");
    const revenueLines = await csvLines("revenue");
    expect(subs.length).toBeGreaterThan(0);
    expect(subLines).toHaveLength(subs.length);
    expect(revenueLines).toHaveLength(paid.length);
    for (const line of [...subLines, ...revenueLines]) expect(line).not.toContain(DEMO_EMAIL);
  });
});
