// Remembering the results of pure, costly functions of a string (cleaning author HTML,
// building a site's stylesheet). Unlike the page cache this needs no invalidation: the key is
// the whole input, so a changed input is simply a new key. Bounded by the characters it holds
// (keys, and values that are strings): when full, the oldest entries go (a Map iterates in
// insertion order).

export function memoByString<T>(fn: (key: string) => T, maxChars = 4_000_000): (key: string) => T {
  return memoBy((key: string) => key, fn, maxChars);
}

/**
 * The same for a function of anything, given a string that captures all of its input. `sizeOf`
 * counts a value that is not a string (one holding long text or bytes), in characters.
 */
export function memoBy<A, T>(
  keyOf: (arg: A) => string,
  fn: (arg: A) => T,
  maxChars = 4_000_000,
  sizeOf: (value: T) => number = (value) => (typeof value === "string" ? value.length : 64),
): (arg: A) => T {
  const kept = new Map<string, T>();
  let held = 0;
  const weight = (key: string, value: T) => key.length + sizeOf(value);
  return (arg) => {
    const key = keyOf(arg);
    const hit = kept.get(key);
    if (hit !== undefined) return hit;
    const value = fn(arg);
    const w = weight(key, value);
    if (w > maxChars / 4) return value; // one huge input would push out everything else
    for (const [k, v] of kept) {
      if (held + w <= maxChars) break;
      kept.delete(k);
      held -= weight(k, v);
    }
    kept.set(key, value);
    held += w;
    return value;
  };
}
