// A site's "changed" mark: every change tells this process's listeners (and other processes), but
// the mark the sweep reads is written at most once a second, so changes at once do not queue on
// the website's row.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { websites } from "../../../db/schema/index.ts";
import { s, startFileServer } from "../../../testing/file-server.ts";
import { createAuthor } from "../../../testing/users.ts";
import { markSiteChanged, onLocalSiteChange } from "./site-changes.service.ts";

startFileServer();

describe("a site marked changed", () => {
  it("tells every listener each time; the mark is written once a second at most", async () => {
    const a = await createAuthor(s);
    const db = s.database.db;
    const markOf = async () =>
      (await db.select({ at: websites.updatedAt }).from(websites).where(eq(websites.userId, a.id)))[0]?.at;
    // An old mark, as a site not changed lately has.
    await db
      .update(websites)
      .set({ updatedAt: new Date(Date.now() - 60_000) })
      .where(eq(websites.userId, a.id));
    const heard: string[] = [];
    const stop = onLocalSiteChange((userId) => heard.push(userId));
    try {
      const before = Date.now();
      await markSiteChanged(db, a.id);
      const first = (await markOf())?.getTime() ?? 0;
      expect(first).toBeGreaterThanOrEqual(before);
      // Changed again at once: told again, the mark left as it is.
      await markSiteChanged(db, a.id);
      expect((await markOf())?.getTime()).toBe(first);
      expect(heard.filter((id) => id === a.id)).toHaveLength(2);
      // A second later the mark moves again.
      await new Promise((r) => setTimeout(r, 1100));
      await markSiteChanged(db, a.id);
      expect((await markOf())?.getTime()).toBeGreaterThan(first);
    } finally {
      stop();
    }
  });
});
