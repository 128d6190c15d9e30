// Admin Actions through the real server (ADR 046): Database Maintenance takes a backup while the
// server serves writes, the backup restores into an empty data directory (and, on PostgreSQL, an
// empty database) where a new server finds every row and upload acknowledged before it; Refresh
// Analytics writes the buffered visits and recomputes the metrics; the reports are CSV of the
// month's rows. Who may do what, and the audit row each leaves.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminAuditLog, transactions, websiteAnalytics, websites } from "../../../db/schema/index.ts";
import { MONTHLY_PRICE_MINOR } from "../../../shared/plans.ts";
import type { Json } from "../../../testing/api-client.ts";
import { freshPostgres } from "../../../testing/resources.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import {
  createAuthor,
  createStaffUser,
  TEST_PASSWORD,
  type TestAuthor,
  type TestUser,
} from "../../../testing/users.ts";
import { loadEnv } from "../../env.ts";
import { readTarGz } from "../../lib/tar.ts";
import { csvCell, decimal, toCsv } from "./csv.ts";
import { RestoreRefused, restoreBackup } from "./restore.ts";

const baseUrl = process.env.DATABASE_URL;
const cleanups: (() => Promise<void> | void)[] = [];
let s: TestServer;
let dataDir: string;
let author: TestAuthor;
let adminUser: TestUser;
let superUser: TestUser;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "bookplate-backup-src-"));
  s = await startTestServer({ DATA_DIR: dataDir }, { embeddedOnDisk: true });
  author = await createAuthor(s, { name: "Ada Writer", tier: "mega" });
  adminUser = await createStaffUser(s, "admin", { prefix: "staff" });
  superUser = await createStaffUser(s, "super_admin", { prefix: "boss" });
}, 60_000);
afterAll(async () => {
  await s?.close();
  for (const c of cleanups.reverse()) await c();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, cookie: string) => s.api(path, { method: "POST", cookie });
const auditActions = async () =>
  (await s.database.db.select({ action: adminAuditLog.action, detail: adminAuditLog.detail }).from(adminAuditLog)).map(
    (r) => r,
  );

async function createBook(server: TestServer, cookie: string, title: string): Promise<Json> {
  const res = await server.api("/api/books", { method: "POST", cookie, json: { title, author: "Ada Writer" } });
  if (res.status !== 201) throw new Error(`book: ${res.status} ${await res.text()}`);
  return (await res.json()).book;
}

async function bookTitles(server: TestServer, cookie: string): Promise<string[]> {
  const res = await server.api("/api/books", { cookie });
  expect(res.status).toBe(200);
  return ((await res.json()).books as Json[]).map((b) => b.title as string);
}

/** The body as sent, byte-order mark kept (Response.text() drops it). */
const rawText = async (res: Response) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("who may run the admin actions", () => {
  it("an author gets 403 for every action; an admin may refresh, list and report but not back up or download", async () => {
    const before = (await auditActions()).length;
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
    expect((await s.api("/api/admin/backups", { cookie: adminUser.cookie })).status).toBe(200);
    const download = await s.api("/api/admin/backups/bookplate-2026-01-01T00-00-00-000Z.tar.gz", {
      cookie: adminUser.cookie,
    });
    expect(download.status).toBe(403);
    // Nothing was done, so nothing was audited, and no backup file was written.
    expect((await auditActions()).length).toBe(before);
    expect((await (await s.api("/api/admin/backups", { cookie: superUser.cookie })).json()).backups).toEqual([]);
  });

  it("a name that is not a listed backup is 404, whatever it tries", async () => {
    for (const name of [
      "..%2Fauth-secret",
      "bookplate-2026-01-01T00-00-00-000Z.tar.gz",
      "x.tar.gz",
      "%2Fetc%2Fpasswd",
    ]) {
      const res = await s.api(`/api/admin/backups/${name}`, { cookie: superUser.cookie });
      expect(res.status, name).toBe(404);
    }
  });
});

describe("Database Maintenance and restore", () => {
  it("backs up while writes go on; the backup restores into an empty place with every acknowledged row and upload", async () => {
    // Rows and an upload, each acknowledged by the API.
    const titles: string[] = [];
    for (let i = 0; i < 5; i++) titles.push((await createBook(s, author.cookie, `Before ${i}`)).title);
    const book = await createBook(s, author.cookie, "With a cover");
    titles.push(book.title);
    const png = await sharp({ create: { width: 400, height: 600, channels: 3, background: "#3366aa" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "cover.png");
    const cover = await s.api(`/api/books/${book.id}/cover`, { method: "POST", cookie: author.cookie, body: form });
    expect(cover.status).toBe(200);
    const coverBook = (await cover.json()).book as Json;
    const uploadUrls = [
      coverBook.coverImageUrl as string,
      ...(coverBook.coverImageVariants as Json[]).map((v) => v.url),
    ];
    const uploadBytes = new Map<string, string>();
    for (const url of new Set(uploadUrls)) {
      const res = await s.api(new URL(url, s.url).pathname);
      expect(res.status, url).toBe(200);
      uploadBytes.set(new URL(url, s.url).pathname, sha(new Uint8Array(await res.arrayBuffer())));
    }
    expect(uploadBytes.size).toBeGreaterThan(0);

    // Writes keep coming while the backup is taken.
    let writing = true;
    const during: string[] = [];
    const writer = (async () => {
      for (let i = 0; writing && i < 30; i++) during.push((await createBook(s, author.cookie, `During ${i}`)).title);
    })();
    const res = await post("/api/admin/actions/maintenance", superUser.cookie);
    writing = false;
    await writer;
    expect(res.status).toBe(200);
    const result = (await res.json()) as Json;
    expect(result.maintenance.statement).toBe("VACUUM (ANALYZE)");
    const name = result.backup.name as string;
    const onDisk = readFileSync(join(dataDir, "backups", name));
    expect(result.backup.sizeBytes).toBe(onDisk.length);

    const listed = (await (await s.api("/api/admin/backups", { cookie: adminUser.cookie })).json()) as Json;
    expect(listed.backups).toEqual([result.backup]);
    expect(listed.database).toBe(baseUrl ? "postgres" : "pglite");
    expect(listed.includesUploads).toBe(true);

    // The download is the file, byte for byte; a super admin's download is audited.
    const download = await s.api(`/api/admin/backups/${name}`, { cookie: superUser.cookie });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${name}"`);
    const downloaded = new Uint8Array(await download.arrayBuffer());
    expect(sha(downloaded)).toBe(sha(onDisk));
    const audit = await auditActions();
    expect(audit.some((a) => a.action === "maintenance_run" && a.detail?.includes(name))).toBe(true);
    expect(audit.some((a) => a.action === "backup_downloaded" && a.detail === name)).toBe(true);

    // What the archive holds: the manifest first, the database, each upload.
    const entries: string[] = [];
    const file = join(mkdtempSync(join(tmpdir(), "bookplate-dl-")), name);
    cleanups.push(() => rmSync(join(file, ".."), { recursive: true, force: true }));
    writeFileSync(file, downloaded);
    await readTarGz(file, async (e) => {
      entries.push(e.name);
    });
    expect(entries[0]).toBe("manifest.json");
    expect(entries).toContain(baseUrl ? "database/postgres.dump" : "database/pgdata.tar");
    for (const path of uploadBytes.keys()) expect(entries).toContain(path.slice(1));

    // Restore into an empty data directory (and an empty database).
    const target = mkdtempSync(join(tmpdir(), "bookplate-restored-"));
    cleanups.push(() => rmSync(target, { recursive: true, force: true }));
    const emptyDb = baseUrl ? await freshPostgres(baseUrl, "bookplate_restore") : undefined;
    if (emptyDb) cleanups.push(() => emptyDb.drop());
    const env = loadEnv({ NODE_ENV: "test", DATA_DIR: target, DATABASE_URL: emptyDb?.url ?? "", LOG_LEVEL: "silent" });
    const restored = await restoreBackup({ env, file, force: false });
    expect(restored.uploads).toBe(entries.filter((e) => e.startsWith("uploads/")).length);

    // A cut-off copy is refused before anything is written.
    const cut = `${file}.cut.tar.gz`;
    writeFileSync(cut, downloaded.subarray(0, Math.floor(downloaded.length / 2)));
    const elsewhere = mkdtempSync(join(tmpdir(), "bookplate-cut-"));
    cleanups.push(() => rmSync(elsewhere, { recursive: true, force: true }));
    const refusedCut = await restoreBackup({
      env: loadEnv({ NODE_ENV: "test", DATA_DIR: elsewhere, DATABASE_URL: emptyDb?.url ?? "", LOG_LEVEL: "silent" }),
      file: cut,
      force: false,
    }).catch((e: unknown) => e);
    expect(refusedCut).toBeInstanceOf(RestoreRefused);
    expect(readdirSync(elsewhere)).toEqual([]);

    // A second restore over it is refused and says how to go on; nothing is changed.
    const again = await restoreBackup({ env, file, force: false }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(RestoreRefused);
    expect((again as Error).message).toMatch(/--force/);

    const r = await startTestServer(
      { DATA_DIR: target },
      { embeddedOnDisk: true, ...(emptyDb ? { sharedDatabaseUrl: emptyDb.url } : {}) },
    );
    try {
      // The session (a row) came back too; so did the password (sign in afresh).
      const restoredTitles = await bookTitles(r, author.cookie);
      for (const t of titles) expect(restoredTitles, t).toContain(t);
      // A write during the backup is either there or not, never half there.
      const liveTitles = await bookTitles(s, author.cookie);
      for (const t of restoredTitles) expect(liveTitles).toContain(t);
      const signIn = await r.api("/api/auth/sign-in/email", {
        method: "POST",
        json: { email: author.email, password: TEST_PASSWORD },
      });
      expect(signIn.status).toBe(200);
      for (const [path, hash] of uploadBytes) {
        const res = await r.api(path);
        expect(res.status, path).toBe(200);
        expect(sha(new Uint8Array(await res.arrayBuffer())), path).toBe(hash);
      }
      // The server kept answering writes while the backup was taken.
      expect(during.length).toBeGreaterThan(0);
    } finally {
      await r.close();
    }
  }, 120_000);

  it.skipIf(!!baseUrl)(
    "npm run backup refuses while the server holds the embedded database, and says what to do",
    async () => {
      const run = promisify(execFile);
      const out = await run("npx", ["tsx", "src/app/cli/backup.ts"], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
      }).catch((e: { code: number; stderr: string }) => e);
      expect((out as { code: number }).code).toBe(1);
      expect((out as { stderr: string }).stderr).toMatch(/Database Maintenance/);
    },
    60_000,
  );
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

    const res = await s.api(`/api/admin/reports/revenue?month=${month}`, { cookie: adminUser.cookie });
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

    const subs = await rawText(
      await s.api(`/api/admin/reports/subscriptions?month=${month}`, { cookie: adminUser.cookie }),
    );
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
    const byDefault = await s.api("/api/admin/reports/subscriptions", { cookie: adminUser.cookie });
    expect(await rawText(byDefault)).toBe(subs);

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
