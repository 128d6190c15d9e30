// Database Maintenance through the real server (ADR 046): it takes a backup while the server
// serves writes, and the backup restores into an empty data directory (and, on PostgreSQL, an
// empty database) where a new server finds every row and upload acknowledged before it.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  adminUser,
  auditActions,
  author,
  cleanups,
  dataDir,
  post,
  s,
  startAdminServer,
  superUser,
} from "../../../testing/admin.ts";
import { apiClient, type Json } from "../../../testing/api-client.ts";
import { freshPostgres } from "../../../testing/resources.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { TEST_PASSWORD } from "../../../testing/users.ts";
import { loadEnv } from "../../env.ts";
import { readTarGz } from "../../lib/tar.ts";
import { RestoreRefused, restoreBackup } from "./restore.ts";

const baseUrl = process.env.DATABASE_URL;

startAdminServer();

async function createBook(server: TestServer, cookie: string, title: string): Promise<Json> {
  const res = await apiClient(server, { cookie: cookie }).books.$post({ json: { title, author: "Ada Writer" } });
  if (res.status !== 201) throw new Error(`book: ${res.status} ${await res.text()}`);
  return (await res.json()).book;
}

async function bookTitles(server: TestServer, cookie: string): Promise<string[]> {
  const res = await apiClient(server, { cookie: cookie }).books.$get();
  expect(res.status).toBe(200);
  return ((await res.json()).books as Json[]).map((b) => b.title as string);
}

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

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

    const listed = (await (await apiClient(s, adminUser).admin.backups.$get()).json()) as Json;
    expect(listed.backups).toEqual([result.backup]);
    expect(listed.database).toBe(baseUrl ? "postgres" : "pglite");
    expect(listed.includesUploads).toBe(true);

    // The download is the file, byte for byte; a super admin's download is audited.
    const download = await apiClient(s, superUser).admin.backups[":name"].$get({ param: { name } });
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
