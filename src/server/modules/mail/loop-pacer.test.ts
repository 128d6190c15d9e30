// The newsletter lane's pacer (ADR 066): it tells someone else's load on the event loop from the
// lane's own by pausing the lane for a window. Real event loop, real busy work; states only, no
// durations asserted.
import { afterEach, expect, it } from "vitest";
import { createLoopPacer, type LoopPacer } from "./loop-pacer.ts";

/**
 * Long enough that a pause the test does not make (a collection in the test's process, the
 * process waiting for a core on a loaded machine) cannot fill 85% of a window the lane sat out:
 * with 40 ms, one such pause in the window of the check read as someone else's load.
 */
const WINDOW = 100;
let pacer: LoopPacer | undefined;
let stopLoad: (() => void) | undefined;
afterEach(() => {
  stopLoad?.();
  pacer?.close();
});

/** Keeps the event loop about 95% busy (in 19 ms bursts) while `when()` says so. */
function load(when: () => boolean) {
  let on = true;
  const step = () => {
    if (!on) return;
    if (when()) {
      const until = performance.now() + 19;
      while (performance.now() < until) {
        /* busy */
      }
    }
    setTimeout(step, 1);
  };
  step();
  stopLoad = () => {
    on = false;
  };
}

/** Waits until the pacer is in `state` (or gives up after a while and returns what it is). */
async function until(p: LoopPacer, state: string, ms = 5000) {
  const end = Date.now() + ms;
  while (p.state() !== state && Date.now() < end) await new Promise((ok) => setTimeout(ok, 5));
  return p.state();
}

it("yields to someone else's load, and goes back to full speed once the loop is quiet", async () => {
  const p = createLoopPacer({ windowMs: WINDOW });
  pacer = p;
  expect(p.state()).toBe("full");
  expect(p.nextAt(1000)).toBe(1000);
  // Someone else: busy whatever the pacer says.
  load(() => true);
  expect(await until(p, "yielding")).toBe("yielding");
  expect(p.nextAt(1000)).toBe(1500);
  stopLoad?.();
  expect(await until(p, "full")).toBe("full");
  expect(p.nextAt(1000)).toBe(1000);
});

it("does not yield to the lane's own load: busy only while the pacer lets the lane run", async () => {
  const p = createLoopPacer({ windowMs: WINDOW });
  pacer = p;
  const seen = new Set<string>();
  // The lane itself: it does its work only when the pacer lets it go now.
  load(() => {
    seen.add(p.state());
    return p.nextAt(Date.now()) <= Date.now();
  });
  await new Promise((ok) => setTimeout(ok, WINDOW * 25));
  // It was checked (the lane paused a window) and found to be the lane's own.
  expect(seen.has("checking")).toBe(true);
  expect(seen.has("yielding")).toBe(false);
});
