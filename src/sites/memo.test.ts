import { describe, expect, it } from "vitest";
import { memoBy, memoByString } from "./memo.ts";

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

  it("counts a value by the size it is given, so values holding long text are bounded too", () => {
    const seen: string[] = [];
    const f = memoBy(
      (k: string) => k,
      (k) => {
        seen.push(k);
        return { text: k.repeat(10) };
      },
      100,
      (v) => v.text.length,
    ); // each entry weighs 11 (key 1 + 10); the default would count 65 and keep just one
    for (const k of ["a", "b", "c", "d"]) f(k);
    f("a");
    f("d");
    expect(seen).toEqual(["a", "b", "c", "d"]);
    for (const k of ["e", "f", "g", "h", "i", "j"]) f(k); // 10 entries: 110 > 100, the oldest went
    f("a");
    expect(seen.at(-1)).toBe("a");
    expect(seen).toHaveLength(11);
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
