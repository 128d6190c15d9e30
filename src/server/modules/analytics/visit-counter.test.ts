import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user, websiteAnalytics, websites } from "../../../db/schema/index.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { isBot, VisitCounter } from "./visit-counter.ts";

let s: TestServer;
let siteId: string;
const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130 Safari/537.36";

beforeAll(async () => {
  s = await startTestServer();
  const id = crypto.randomUUID();
  await s.database.db.insert(user).values({ id, name: "V", email: "visits@example.com" });
  const [site] = await s.database.db
    .insert(websites)
    .values({ userId: id, subdomain: "visits", websiteName: "Visits" })
    .returning({ id: websites.id });
  siteId = site?.id ?? "";
});
afterAll(async () => {
  await s?.close();
});

async function counts(day: string) {
  const rows = await s.database.db.select().from(websiteAnalytics).where(eq(websiteAnalytics.websiteId, siteId));
  return rows.find((r) => r.date === day);
}

describe("visit counting", () => {
  it("counts views and unique visitors per day, without bots", async () => {
    let now = new Date("2026-03-01T10:00:00Z");
    const counter = new VisitCounter(s.database.db, { now: () => now });
    counter.record(siteId, "203.0.113.1", browser);
    counter.record(siteId, "203.0.113.1", browser);
    counter.record(siteId, "203.0.113.2", browser);
    counter.record(siteId, "203.0.113.3", "Googlebot/2.1");
    await counter.flush();
    expect(await counts("2026-03-01")).toMatchObject({ pageViews: 3, uniqueVisitors: 2 });

    counter.record(siteId, "203.0.113.1", browser);
    await counter.flush();
    expect(await counts("2026-03-01")).toMatchObject({ pageViews: 4, uniqueVisitors: 2 });

    // A new day has a new salt: yesterday's visitor is new again, and nothing links them.
    now = new Date("2026-03-02T00:00:01Z");
    counter.record(siteId, "203.0.113.1", browser);
    await counter.stop();
    expect(await counts("2026-03-02")).toMatchObject({ pageViews: 1, uniqueVisitors: 1 });
  });

  it("recognises common bots and tools", () => {
    expect(isBot("Mozilla/5.0 (compatible; bingbot/2.0)")).toBe(true);
    expect(isBot("Mozilla/5.0 ... Chrome-Lighthouse")).toBe(true);
    expect(isBot(undefined)).toBe(true);
    expect(isBot(browser)).toBe(false);
  });
});
