// What one write of the visit counter costs with many sites pending (a tool for the counter's
// flush; on PGlite it runs on the server's event loop and holds requests meanwhile). Opens a copy
// of FLUSH_DATA (a data directory seeded by bench/profile-warm.ts, default its 1,000 sites) or
// FLUSH_DATABASE_URL, counts 30 views of the home page of every site, writes, FLUSH_TIMES times;
// prints each write's wall time and this process's CPU (ms).
//   FLUSH_DATA=/tmp/bookplate-warm-1000 npm exec tsx bench/visit-flush.ts
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../src/db/client.ts";
import { websites } from "../src/db/schema/index.ts";
import { VisitCounter } from "../src/server/modules/analytics/visit-counter.ts";

const url = process.env.FLUSH_DATABASE_URL ?? "";
const dir = mkdtempSync(join(tmpdir(), "bookplate-flush-"));
if (!url) {
  cpSync(process.env.FLUSH_DATA ?? "/tmp/bookplate-warm-1000", dir, { recursive: true });
  rmSync(join(dir, "bookplate.lock"), { force: true });
}
const database = await openDatabase({ dataDir: dir, databaseUrl: url });
const ids = (await database.db.select({ id: websites.id }).from(websites)).map((r) => r.id);
const counter = new VisitCounter(database.db);
const writes: string[] = [];
for (let i = 0; i < Number(process.env.FLUSH_TIMES ?? 20); i++) {
  for (let k = 0; k < 30; k++)
    for (const id of ids) counter.record(id, "127.0.0.1", "bench", { path: "/", source: null });
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await counter.flush();
  const used = process.cpuUsage(cpu);
  writes.push(`${(performance.now() - t0).toFixed(0)} ms (CPU ${((used.user + used.system) / 1000).toFixed(0)})`);
}
console.log(`${ids.length} sites; each write: ${writes.join(", ")}`);
await database.close();
rmSync(dir, { recursive: true, force: true });
