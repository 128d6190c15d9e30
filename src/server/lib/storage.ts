// Where uploaded files live. Local directory by default; the interface is what an
// S3-compatible implementation has to satisfy.
import { mkdir, readdir, readFile, rm, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join, normalize } from "node:path";

export type Storage = {
  /** Store bytes under a key like `covers/abc/640.webp`; returns the public URL path. */
  put(key: string, body: Uint8Array, contentType: string): Promise<string>;
  /**
   * Deletes the files directly under `prefix` whose URL `keep` does not hold (a list, or a test
   * of each URL) and that are older than `graceMs` (so an upload still on its way to the database
   * is never taken). Missing is fine.
   */
  prune(prefix: string, keep: Keep, graceMs: number): Promise<number>;
  /** Every file under `prefix` (at any depth), as storage keys; none when it does not exist. */
  list(prefix: string): Promise<string[]>;
  /** A stored file's bytes. */
  read(key: string): Promise<Uint8Array>;
  /** Deletes everything under `prefix` (an account's folder); missing is fine. */
  removeAll(prefix: string): Promise<void>;
  /** The directory served at /uploads, when files are local. */
  localRoot?: string;
};

export const UPLOADS_PREFIX = "/uploads/";

/** The URLs (`/uploads/…`) a prune keeps: a list, or a test of each. */
export type Keep = readonly string[] | ((url: string) => boolean);

/** `keep` as a test of one URL. */
export function keeps(keep: Keep): (url: string) => boolean {
  if (typeof keep === "function") return keep;
  const kept = new Set(keep);
  return (url) => kept.has(url);
}

/** What a missing object looks like to an object store's `read` (the app's /uploads route answers 404). */
export class StoredFileMissing extends Error {}

/** A key as stored: relative, normalised, never climbing out of the store. */
export function safeStorageKey(key: string): string {
  const safe = normalize(key).replace(/^(\.\.(\/|\\|$))+/, "");
  if (safe !== key || key.startsWith("/")) throw new Error(`Unsafe storage key: ${key}`);
  return safe;
}

export function localStorage(root: string): Storage {
  return {
    localRoot: root,
    async prune(prefix, keep, graceMs) {
      const dir = join(root, safeStorageKey(prefix));
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return 0;
      }
      const kept = keeps(keep);
      let removed = 0;
      for (const name of names) {
        if (kept(`${UPLOADS_PREFIX}${prefix}/${name}`)) continue;
        const path = join(dir, name);
        try {
          const info = await stat(path);
          if (!info.isFile() || Date.now() - info.mtimeMs < graceMs) continue;
          await unlink(path);
          removed++;
        } catch {
          // Gone already (another process pruned it): nothing to do.
        }
      }
      if (removed === names.length) await rmdir(dir).catch(() => undefined);
      return removed;
    },
    async list(prefix) {
      const base = safeStorageKey(prefix);
      const out: string[] = [];
      async function walk(rel: string) {
        let entries: import("node:fs").Dirent[];
        try {
          entries = await readdir(join(root, rel), { withFileTypes: true });
        } catch {
          return;
        }
        for (const e of entries) {
          const child = `${rel}/${e.name}`;
          if (e.isDirectory()) await walk(child);
          else if (e.isFile()) out.push(child);
        }
      }
      await walk(base);
      return out.sort();
    },
    async read(key) {
      return readFile(join(root, safeStorageKey(key)));
    },
    async removeAll(prefix) {
      const base = safeStorageKey(prefix);
      if (!base || base === ".") throw new Error("Refusing to remove the whole storage");
      await rm(join(root, base), { recursive: true, force: true });
    },
    async put(key, body) {
      const safe = safeStorageKey(key);
      const path = join(root, safe);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
      return `${UPLOADS_PREFIX}${safe}`;
    },
  };
}
