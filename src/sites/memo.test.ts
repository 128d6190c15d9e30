import { describe, expect, it } from "vitest";
import { memoByString } from "./memo.ts";

describe("memoByString", () => {
  it("computes each input once", () => {
    let calls = 0;
    const upper = memoByString((s) => {
      calls++;
      return s.toUpperCase();
    });
    expect(upper("abc")).toBe("ABC");
    expect(upper("abc")).toBe("ABC");
    expect(upper("abd")).toBe("ABD");
    expect(calls).toBe(2);
  });

  it("holds no more than its size, dropping the oldest first", () => {
    const seen: string[] = [];
    const id = memoByString((s) => {
      seen.push(s);
      return s;
    }, 40); // each entry weighs 10 (key 5 + value 5)
    for (const k of ["aaaaa", "bbbbb", "ccccc", "ddddd", "eeeee"]) id(k);
    id("eeeee"); // kept
    id("bbbbb"); // still kept: only the oldest went
    id("aaaaa"); // dropped, computed again
    expect(seen).toEqual(["aaaaa", "bbbbb", "ccccc", "ddddd", "eeeee", "aaaaa"]);
  });

  it("does not keep an input too large to share the space", () => {
    let calls = 0;
    const f = memoByString((s) => {
      calls++;
      return s.length;
    }, 100);
    const big = "x".repeat(80);
    f(big);
    f(big);
    expect(calls).toBe(2);
  });
});
