import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { user } from "../../db/schema/index.ts";
import { s, startFileServer } from "../../testing/file-server.ts";
import { setRole } from "./admin.ts";

startFileServer();

describe("npm run admin", () => {
  it("grants and revokes admin roles by email, case-insensitively", async () => {
    await s.database.db.insert(user).values({ id: "u-admin", name: "Staff", email: "staff@example.com" });
    expect(await setRole(s.database.db, "STAFF@example.com", "super_admin")).toBe(true);
    const [row] = await s.database.db.select().from(user).where(eq(user.id, "u-admin"));
    expect(row?.role).toBe("super_admin");
    expect(await setRole(s.database.db, "staff@example.com", "user")).toBe(true);
    expect(await setRole(s.database.db, "nobody@example.com", "admin")).toBe(false);
  });

  it("explains itself when used wrongly or for an unknown account", () => {
    const dir = mkdtempSync(join(tmpdir(), "bookplate-admin-"));
    try {
      const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SEED_DEMO: "false" };
      const bad = spawnSync(process.execPath, ["--import", "tsx", "src/app/cli/admin.ts", "promote"], { env });
      expect(bad.status).toBe(2);
      expect(bad.stderr.toString()).toMatch(/Usage:/);
      const unknown = spawnSync(
        process.execPath,
        ["--import", "tsx", "src/app/cli/admin.ts", "grant", "ghost@example.com"],
        { env },
      );
      expect(unknown.status).toBe(1);
      expect(unknown.stderr.toString()).toMatch(/No account with the email ghost@example.com/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Two cold starts of the CLI (tsx, PGlite, migrations): 27 s alone, past 60 s on a loaded
    // 2-core machine; not a timing test.
  }, 180_000);
});
