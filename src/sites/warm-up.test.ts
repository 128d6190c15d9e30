// Warming the renderer at start-up (ADR 075): real pages of real sites rendered the whole way a
// reader's request goes, then forgotten; no visit counted; bounded in renders and in time.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hit, makeAuthor, s, startSiteServer } from "../testing/sites.ts";
import { loopbackFetch, warmUpRenderer } from "./warm-up.ts";

startSiteServer();

type Asked = {
  host: string;
  path: string;
  headers: Record<string, string>;
  status: number;
  encoding: string | undefined;
};

/** A fetch that sends each request to the test server over HTTP, keeping what was asked and answered. */
function recordingFetch(asked: Asked[]) {
  return async (request: Request) => {
    const url = new URL(request.url);
    const headers = Object.fromEntries(request.headers);
    const host = headers.host ?? url.host;
    const res = await hit(host, url.pathname, { headers });
    const encoding = res.headers["content-encoding"];
    asked.push({ host, path: url.pathname, headers, status: res.status, encoding: encoding?.toString() });
    return new Response(res.body, { status: res.status });
  };
}

const viewsOfAllSites = async () => {
  await s.sites.flushVisits();
  const r = await s.database.db.execute<{ n: number }>(
    sql`select coalesce(sum(page_views), 0)::int as n from website_analytics`,
  );
  return Number((r as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
};

describe("warming the renderer", () => {
  it("renders real pages of the sites, counts no visit and keeps nothing", async () => {
    await makeAuthor("warmone");
    const views = await viewsOfAllSites();
    const asked: Asked[] = [];
    const warmed = await warmUpRenderer({
      db: s.database.db,
      sites: s.sites,
      sitesDomain: `localhost:${s.port}`,
      fetch: recordingFetch(asked),
      budgetMs: 60_000,
      maxRenders: 12,
    });

    expect(warmed.renders).toBe(12);
    // Three waves of four renders, each followed by one of its pages again (a hit).
    expect(asked).toHaveLength(15);
    const hosts = new Set(asked.map((a) => a.host));
    expect(hosts).toContain(`demo.localhost:${s.port}`);
    expect(hosts).toContain(`warmone.localhost:${s.port}`);
    // The demo is live: its home page is rendered, not an error; some are asked as browsers do.
    const demoHome = asked.find((a) => a.host.startsWith("demo.") && a.path === "/");
    expect(demoHome?.status).toBe(200);
    expect(asked.some((a) => a.status === 200 && a.encoding === "br")).toBe(true);
    // Every request says it is a prefetch: no reader's visit.
    for (const a of asked) expect(a.headers["sec-purpose"]).toBe("prefetch");
    expect(await viewsOfAllSites()).toBe(views);
    // The process starts with nothing kept, as without warming.
    expect(s.sites.cache?.size).toBe(0);
    expect(s.sites.contexts?.size).toBe(0);
    // And a reader's request then renders and keeps as usual.
    expect((await hit("demo.localhost", "/")).status).toBe(200);
    expect(s.sites.cache?.size).toBeGreaterThan(0);
  });

  it("renders each page afresh, even a site rendered before it", async () => {
    const asked: Asked[] = [];
    const keptWhenAsked: number[] = [];
    const send = recordingFetch(asked);
    // As at start-up: nothing kept yet (the test before left a reader's page).
    s.sites.cache?.clear();
    await warmUpRenderer({
      db: s.database.db,
      sites: s.sites,
      sitesDomain: `localhost:${s.port}`,
      fetch: (request) => {
        keptWhenAsked.push(s.sites.cache?.size ?? -1);
        return send(request);
      },
      budgetMs: 60_000,
      maxRenders: 12,
    });
    // Each wave starts with nothing kept: its pages are renders, not the last wave's pages; then
    // one of them is asked again, found kept.
    expect(keptWhenAsked).toHaveLength(15);
    expect(keptWhenAsked.filter((_, i) => i % 5 < 4).every((n) => n === 0)).toBe(true);
    expect(keptWhenAsked.filter((_, i) => i % 5 === 4).every((n) => n > 0)).toBe(true);
    expect(s.sites.cache?.size).toBe(0);
  });

  it("stops starting renders once its time is spent", async () => {
    const asked: Asked[] = [];
    const send = recordingFetch(asked);
    const slow = async (request: Request) => {
      await new Promise((ok) => setTimeout(ok, 50));
      return send(request);
    };
    const warm = (budgetMs: number) =>
      warmUpRenderer({
        db: s.database.db,
        sites: s.sites,
        sitesDomain: `localhost:${s.port}`,
        fetch: slow,
        budgetMs,
        maxRenders: 64,
      });
    // The budget is checked before each wave: one wave (and its hit) once it is spent.
    expect((await warm(30)).renders).toBe(4);
    expect(asked).toHaveLength(5);
    // No time at all: nothing rendered.
    expect((await warm(0)).renders).toBe(0);
    expect(asked).toHaveLength(5);
  });

  it("never fails the start: an app that throws leaves the process cold, nothing kept", async () => {
    const warmed = await warmUpRenderer({
      db: s.database.db,
      sites: s.sites,
      sitesDomain: `localhost:${s.port}`,
      fetch: () => {
        throw new Error("not yet");
      },
      budgetMs: 60_000,
      maxRenders: 4,
    });
    expect(warmed.renders).toBe(4);
    expect(s.sites.cache?.size).toBe(0);
  });

  it("asks the process's own server with the site's Host header", async () => {
    const fetch = loopbackFetch(s.port);
    const res = await fetch(
      new Request(`http://demo.localhost:${s.port}/`, {
        headers: { host: `demo.localhost:${s.port}`, "sec-purpose": "prefetch" },
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<html");
  });
});
