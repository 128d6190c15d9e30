// Newsletters give way to readers (ADR 066): the newsletter lane runs at NEWSLETTER_SEND_RATE
// while the process has time to spare, and slows to a trickle while its event loop is busy with
// other work — the public sites and the dashboard answer from the same loop. Busy is read from
// the loop's utilisation (the share of time it ran rather than waited), every `windowMs`.
//
// The lane's own work counts in that share too, so a busy reading while the lane runs at full
// speed is checked: the lane pauses for one window and the loop is read again. Still busy, it is
// someone else: the lane yields (one copy every `busyGapMs`) until the loop has been quiet for
// `quietWindows` windows in a row. Quiet, it was the lane itself: it goes on at full speed and
// checks again only after a while (longer each time, up to `maxCheckEveryMs`), so a lane alone
// loses little of its speed to the checks.
import { type EventLoopUtilization, performance } from "node:perf_hooks";

export type PacerOptions = {
  /** How often the loop's utilisation is read. */
  windowMs: number;
  /** At or above this utilisation the loop is busy. */
  busyAbove: number;
  /** Below this for `quietWindows` windows in a row, a yielding lane goes back to full speed. */
  idleBelow: number;
  quietWindows: number;
  /** The wait between two copies while the loop is busy with other work (0: never yield). */
  busyGapMs: number;
  /** The longest a full-speed lane goes between two checks of who keeps the loop busy. */
  maxCheckEveryMs: number;
};

export const DEFAULT_PACER: PacerOptions = {
  windowMs: 250,
  busyAbove: 0.85,
  idleBelow: 0.6,
  quietWindows: 4,
  busyGapMs: 500,
  maxCheckEveryMs: 4000,
};

export type PacerState = "full" | "checking" | "yielding";

export type LoopPacer = {
  /** The earliest time (ms since the epoch) the lane's next copy may start, its last having started at `lastAt`. */
  nextAt(lastAt: number): number;
  state(): PacerState;
  /** The utilisation read last (0–1). */
  utilisation(): number;
  close(): void;
};

export function createLoopPacer(opts: Partial<PacerOptions> = {}): LoopPacer {
  const o = { ...DEFAULT_PACER, ...opts };
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let state: PacerState = "full";
  let u = 0;
  let nextReadAt = Date.now() + o.windowMs;
  let checkAfter = 0;
  let checkEvery = o.windowMs * 2;
  let quiet = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    const reading = performance.eventLoopUtilization();
    u = performance.eventLoopUtilization(reading, last).utilization;
    last = reading;
    nextReadAt = now + o.windowMs;
    if (o.busyGapMs <= 0) return;
    if (state === "yielding") {
      // Readers come in bursts: one quiet window is not yet the end of them.
      quiet = u < o.idleBelow ? quiet + 1 : 0;
      if (quiet >= o.quietWindows) state = "full";
    } else if (state === "checking") {
      // This window the lane sent nothing: what kept the loop busy was someone else's.
      if (u >= o.busyAbove) {
        state = "yielding";
        quiet = 0;
        checkEvery = o.windowMs * 2;
      } else {
        state = "full";
        checkAfter = now + checkEvery;
        checkEvery = Math.min(checkEvery * 2, o.maxCheckEveryMs);
      }
    } else if (u >= o.busyAbove && now >= checkAfter) state = "checking";
  }, o.windowMs);
  timer.unref();
  return {
    nextAt: (lastAt) => (state === "yielding" ? lastAt + o.busyGapMs : state === "checking" ? nextReadAt + 5 : lastAt),
    state: () => state,
    utilisation: () => u,
    close: () => clearInterval(timer),
  };
}
