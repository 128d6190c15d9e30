// Preloaded into a server by bench/api-tail.ts (node --import): keeps its garbage collections so
// far (count and milliseconds of scavenges and mark-compacts, and pauses over 20 ms) in
// GC_COUNTER_DIR/gc-PID.json, rewritten every 200 ms, so a bench can read them around a slice.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";

const file = join(process.env.GC_COUNTER_DIR ?? "/tmp", `gc-${process.pid}.json`);
const c = { scavenges: 0, scavengeMs: 0, markCompacts: 0, markCompactMs: 0, pausesOver20ms: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = /** @type {{ kind?: number }} */ (e.detail)?.kind;
    if (kind === 1) {
      c.scavenges++;
      c.scavengeMs += e.duration;
    } else if (kind === 4) {
      c.markCompacts++;
      c.markCompactMs += e.duration;
    }
    if (e.duration > 20) c.pausesOver20ms++;
  }
}).observe({ entryTypes: ["gc"] });
setInterval(() => writeFileSync(file, JSON.stringify(c)), 200).unref();
