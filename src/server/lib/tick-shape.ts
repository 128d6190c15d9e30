// Keeps one of Node's own next-tick records alive for the life of the process (ADR 038).
//
// process.nextTick builds each record with an object literal whose first keys are computed
// (symbols): `{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, [async_context_frame]: …,
// callback, args }`. V8 finds the hidden class ("map") such a literal ends in by following
// transitions from the empty object's map, and those transitions are weak. A request's records
// all die young, so a full garbage collection that finds none alive drops the whole chain; the
// next record builds a new one, the literal's inline cache sees yet another map, and after a few
// collections it gives up for good: every record then goes through the runtime, ~15× slower
// (measured: ~20 ns → ~330 ns). On a server that is a few microseconds per request, every
// request, from the first full collection on. One live record keeps the chain, and the cache
// stays on its one map.

import { createHook } from "node:async_hooks";

let held: object | undefined;

/** Holds one next-tick record (idempotent). Call once at start-up, before the server listens. */
export function holdTickRecordShape(): void {
  if (held) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === "TickObject" && held === undefined) held = resource;
    },
  });
  hook.enable();
  process.nextTick(noop);
  hook.disable();
}

function noop() {}

/** The record held, if any (for the test). */
export const heldTickRecord = (): object | undefined => held;
