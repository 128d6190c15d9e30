// Admin Actions through the real server (ADR 046): who may do what, and the audit row each leaves;
// Refresh Analytics writes the buffered visits and recomputes the metrics; the reports are CSV of
// the month's rows. Database Maintenance and restore are in admin-backup.test.ts.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { transactions, websiteAnalytics, websites } from "../../../db/schema/index.ts";
import { MONTHLY_PRICE_MINOR } from "../../../shared/plans.ts";
import { adminUser, auditActions, author, post, s, startAdminServer, superUser } from "../../../testing/admin.ts";
import { apiClient, type Json, readJson } from "../../../testing/api-client.ts";
import { createAuthor } from "../../../testing/users.ts";
import { csvCell, decimal, toCsv } from "./csv.ts";

startAdminServer();

/** The body as sent, byte-order mark kept (Response.text() drops it). */
const rawText = async (res: Response) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());

describe("who may run the admin actions", () => {
  it("an author gets 403 for every action; an admin may refresh, list and report but not back up or download", async () => {
    const before = (await auditActions()).length;
    // Every action by path, signed out and as an author: the refusal, not the request shape, is under test.
    for (const [method, path] of [
      ["POST", "/api/admin/actions/refresh-analytics"],
      ["POST", "/api/admin/actions/maintenance"],
      ["GET", "/api/admin/backups"],
      ["GET", "/api/admin/backups/bookplate-2026-01-01T00-00-00-000Z.tar.gz"],
      ["GET", "/api/admin/reports/revenue"],
    ] as const) {
      expect((await s.api(path, { method })).status, `${method} ${path} signed out`).toBe(401);
      expect((await s.api(path, { method, cookie: author.cookie })).status, `${method} ${path} author`).toBe(403);
    }
    const maintenance = await post("/api/admin/actions/maintenance", adminUser.cookie);
    expect(maintenance.status).toBe(403);
    expect((await maintenance.json()).error.message).toMatch(/super admin/);
    expect((await apiClient(s, adminUser).admin.backups.$get()).status).toBe(200);
    const download = await apiClient(s, adminUser).admin.backups[":name"].$get({
      param: { name: "bookplate-2026-01-01T00-00-00-000Z.tar.gz" },
    });
    expect(download.status).toBe(403);
    // Nothing was done, so nothing was audited, and no backup file was written.
    expect((await auditActions()).length).toBe(before);
    expect((await readJson(apiClient(s, superUser).admin.backups.$get())).body.backups).toEqual([]);
  });

  it("a name that is not a listed backup is 404, whatever it tries", async () => {
    for (const name of [
      "..%2Fauth-secret",
      "bookplate-2026-01-01T00-00-00-000Z.tar.gz",
      "x.tar.gz",
      "%2Fetc%2Fpasswd",
    ]) {
      const res = await apiClient(s, superUser).admin.backups[":name"].$get({ param: { name } });
      expect(res.status, name).toBe(404);
    }
  });
});

describe("Refresh Analytics", () => {
  it("writes the buffered visits into the daily rollup and recomputes today's metrics", async () => {
    const [site] = await s.database.db.select().from(websites).where(eq(websites.userId, author.id));
    expect(site).toBeDefined();
    const today = new Date().toISOString().slice(0, 10);
    const viewsNow = async () =>
      (
        await s.database.db
          .select({ v: websiteAnalytics.pageViews })
          .from(websiteAnalytics)
          .where(and(eq(websiteAnalytics.websiteId, site?.id ?? ""), eq(websiteAnalytics.date, today)))
      )[0]?.v ?? 0;
    const before = await viewsNow();
    const ua = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    for (let i = 0; i < 3; i++) {
      const page = await s.onHost(`${author.subdomain}.localhost`, "/", { "user-agent": ua });
      expect(page.status).toBe(200);
    }
    const res = await post("/api/admin/actions/refresh-analytics", adminUser.cookie);
    expect(res.status).toBe(200);
    expect(await viewsNow()).toBe(before + 3);
    const { metrics } = (await res.json()) as Json;
    expect(metrics.metricDate).toBe(today);
    expect((await auditActions()).some((a) => a.action === "analytics_refreshed")).toBe(true);
  });
});

describe("Generate Reports", () => {
  it("the month's transactions and subscriptions as CSV, formulas defused, other months left out", async () => {
    const sneaky = await createAuthor(s, { name: '=SUM(1,2) "Mallory"', tier: "midi" });
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const inMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 12));
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
    const made = [
      {
        userId: author.id,
        subscriptionTier: "mini",
        transactionType: "subscription_payment",
        currency: "GBP",
        amountMinor: 499,
        amountGbpMinor: 499,
        processedAt: inMonth,
      },
      {
        userId: sneaky.id,
        subscriptionTier: "midi",
        transactionType: "subscription_payment",
        currency: "USD",
        amountMinor: 1299,
        amountGbpMinor: 1023,
        processedAt: inMonth,
      },
      {
        userId: sneaky.id,
        subscriptionTier: "midi",
        transactionType: "refund",
        currency: "USD",
        amountMinor: 1299,
        amountGbpMinor: 1023,
        processedAt: inMonth,
      },
      {
        userId: author.id,
        subscriptionTier: "mini",
        transactionType: "subscription_payment",
        currency: "GBP",
        amountMinor: 777,
        amountGbpMinor: 777,
        processedAt: lastMonth,
      },
    ];
    const ids = (await s.database.db.insert(transactions).values(made).returning({ id: transactions.id })).map(
      (r) => r.id,
    );

    const reports = apiClient(s, adminUser).admin.reports[":kind"];
    const res = await reports.$get({ param: { kind: "revenue" }, query: { month } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="bookplate-revenue-${month}.csv"`);
    const text = await rawText(res);
    expect(text.startsWith("\uFEFFprocessed_at,transaction_id,")).toBe(true);
    const lines = text.slice(1).trimEnd().split("\r\n");
    const mine = lines.filter((l) => ids.some((id) => l.includes(id)));
    expect(mine).toHaveLength(3);
    expect(lines.some((l) => l.includes(ids[3] as string))).toBe(false);
    expect(mine).toContain(
      [
        inMonth.toISOString(),
        ids[0],
        author.email,
        "Ada Writer",
        "mini",
        "subscription_payment",
        "GBP",
        "4.99",
        "4.99",
        "",
      ].join(","),
    );
    expect(mine).toContain(
      [
        inMonth.toISOString(),
        ids[2],
        sneaky.email,
        `"'=SUM(1,2) ""Mallory"""`,
        "midi",
        "refund",
        "USD",
        "-12.99",
        "-10.23",
        "",
      ].join(","),
    );
    // The GBP column of this month's rows adds up to what the month's rows say.
    const gbp = mine.reduce((sum, l) => sum + Math.round(Number(l.split(",").at(-2)) * 100), 0);
    expect(gbp).toBe(499 + 1023 - 1023);

    const subs = await rawText(await reports.$get({ param: { kind: "subscriptions" }, query: { month } }));
    const subLines = subs.slice(1).trimEnd().split("\r\n");
    expect(subLines[0]?.split(",").slice(0, 7)).toEqual([
      "subscription_id",
      "account_email",
      "account_name",
      "tier",
      "status_now",
      "currency",
      "monthly_price",
    ]);
    const sneakyLine = subLines.find((l) => l.includes(sneaky.email)) ?? "";
    expect(sneakyLine).toContain(`,${sneaky.email},"'=SUM(1,2) ""Mallory""",midi,`);
    expect(sneakyLine).toContain(`,GBP,${csvCell(decimal(MONTHLY_PRICE_MINOR.midi.GBP))},no,`);
    // Default: this month.
    const byDefault = await reports.$get({ param: { kind: "subscriptions" }, query: {} });
    expect(await rawText(byDefault)).toBe(subs);

    // Malformed months, sent by path as a browser's address bar would.
    for (const bad of ["2026-13", "26-01", "now", "1999-12"]) {
      const res = await s.api(`/api/admin/reports/revenue?month=${bad}`, { cookie: adminUser.cookie });
      expect(res.status, bad).toBe(400);
      expect((await res.json()).error.message).toBe("Choose a month as YYYY-MM");
    }
    expect((await auditActions()).filter((a) => a.action === "report_downloaded").length).toBeGreaterThanOrEqual(3);
  });

  it("cells: quotes, commas, line breaks and formula starts", () => {
    expect(csvCell('He said "hi", then left')).toBe('"He said ""hi"", then left"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    for (const f of ["=SUM(A1)", "+1", "-1", "@cmd", "\tx", "\rx"]) expect(csvCell(f).replace(/^"/, "")).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(decimal(-1023))).toBe("-10.23");
    expect(csvCell(decimal(5))).toBe("0.05");
    expect(csvCell(null)).toBe("");
    expect(toCsv(["a"], [["x"]])).toBe("\uFEFFa\r\nx\r\n");
  });
});
