// The fast path's own work per cached hit, Node's http left out (a tool for changes to
// src/sites/delivery and the visit counter; the server's whole CPU per request is
// bench/profile-warm.ts). A page cache of HITS_SITES home pages of ~30 KB and a visit counter that
// never writes; fake requests (fresh header strings, as Node's parser makes them) for the hosts in
// turn, and for one host alone; HITS_BATCHES batches of 100,000 hits each, alternating, CPU µs
// per hit (process.cpuUsage). `npm exec tsx bench/fast-path-hits.ts`
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Db } from "../src/db/client.ts";
import { VisitCounter } from "../src/server/modules/analytics/visit-counter.ts";
import { pageKey } from "../src/sites/delivery/delivery.ts";
import { cachedPageAnswerer } from "../src/sites/delivery/fast-path.ts";
import { etagOf, PageCache } from "../src/sites/delivery/page-cache.ts";
import { median } from "./lib.ts";

const SITES = Number(process.env.HITS_SITES ?? 1000);
const BATCHES = Number(process.env.HITS_BATCHES ?? 10);
const PER_BATCH = 100_000;
const year = new Date().getUTCFullYear();
const cache = new PageCache(1024 * 1024 * 1024);
const visits = new VisitCounter({} as Db);
const hostBytes: Buffer[] = [];
for (let i = 0; i < SITES; i++) {
  const sub = `site${String(i).padStart(4, "0")}`;
  const body = Buffer.alloc(30_000, `<p>${sub} `);
  const key = pageKey({ lookup: { subdomain: sub }, basePath: "", mode: "tenant" }, "/", "", false, year, "");
  const headers = { "Content-Type": "text/html; charset=utf-8", "X-Content-Type-Options": "nosniff" };
  cache.set(`id-${i}`, key, {
    status: 200,
    body,
    etag: etagOf(body),
    headers,
    websiteId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    countsAsView: true,
  });
  hostBytes.push(Buffer.from(`${sub}.sites.test:8080`, "latin1"));
}
const answer = cachedPageAnswerer({
  sites: { cache, visits },
  hosts: { appHost: "app.test:8080", sitesDomain: "sites.test:8080" },
  trustProxy: false,
  countryHeader: null,
  record: () => {},
});
const socket = { remoteAddress: "127.0.0.1" };
const res = { writeHead: () => res, end: () => res } as unknown as ServerResponse;
const agent = Buffer.from("bench", "latin1");
function batch(sites: number): number {
  const before = process.cpuUsage();
  for (let n = 0; n < PER_BATCH; n++) {
    const req = {
      method: "GET",
      url: "/",
      headers: { host: (hostBytes[n % sites] as Buffer).toString("latin1"), "user-agent": agent.toString("latin1") },
      socket,
    } as unknown as IncomingMessage;
    if (!answer(req, res)) throw new Error("not answered from the cache");
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / PER_BATCH;
}
batch(SITES);
batch(1);
const runs: Record<string, number[]> = { [`${SITES} hosts`]: [], "one host": [] };
for (let b = 0; b < BATCHES; b++) {
  runs[`${SITES} hosts`]?.push(batch(SITES));
  runs["one host"]?.push(batch(1));
  // The counter's write every 10 s, without a database: its pending counts start again.
  (visits as unknown as { pending: Map<string, unknown> }).pending = new Map();
}
for (const [name, list] of Object.entries(runs)) {
  console.log(`${name}: µs per hit, median ${median(list).toFixed(2)} (${list.map((x) => x.toFixed(2)).join(", ")})`);
}
