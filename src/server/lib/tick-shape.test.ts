import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const moduleUrl = new URL("./tick-shape.ts", import.meta.url).href;

/**
 * Runs in a child Node with V8's natives syntax: holds a record, lets every other record die
 * across full collections, then compares a fresh record's hidden class with the held one.
 */
const CHILD = `
import { createHook } from "node:async_hooks";
const { holdTickRecordShape, heldTickRecord } = await import(${JSON.stringify(moduleUrl)});
holdTickRecordShape();
const held = heldTickRecord();
holdTickRecordShape(); // a second call keeps the first record
const burst = () => new Promise((ok) => {
  let n = 0;
  const step = () => (++n < 500 ? process.nextTick(step) : ok());
  process.nextTick(step);
});
for (let i = 0; i < 3; i++) {
  await burst();
  await new Promise((ok) => setImmediate(ok));
  globalThis.gc();
}
let fresh;
const hook = createHook({ init(_id, type, _trigger, resource) { if (type === "TickObject") fresh ??= resource; } });
hook.enable();
process.nextTick(() => {});
hook.disable();
console.log(JSON.stringify({
  held: held !== undefined && heldTickRecord() === held,
  keys: held ? Object.keys(held) : [],
  symbols: held ? Object.getOwnPropertySymbols(held).length : 0,
  sameMap: held !== undefined && %HaveSameMap(held, fresh),
}));
`;

function run() {
  const r = spawnSync(
    process.execPath,
    ["--allow-natives-syntax", "--expose-gc", "--import", "tsx", "--input-type=module", "-e", CHILD],
    { encoding: "utf8", cwd: fileURLToPath(new URL("../../..", import.meta.url)) },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}") as {
    held: boolean;
    keys: string[];
    symbols: number;
    sameMap: boolean;
  };
}

describe("holding a next-tick record (ADR 038)", () => {
  it("holds one of Node's own records, whose hidden class later records keep after full collections", () => {
    const out = run();
    expect(out.held).toBe(true);
    // Node's record: the async ids and context frame under symbols, then callback and args.
    expect(out.keys).toEqual(["callback", "args"]);
    expect(out.symbols).toBeGreaterThanOrEqual(2);
    expect(out.sameMap).toBe(true);
  });
});
