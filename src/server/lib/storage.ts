// Where uploaded files live. Local directory by default; the interface is what an
// S3-compatible implementation has to satisfy.
import { mkdir, readdir, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join, normalize } from "node:path";

export type Storage = {
  /** Store bytes under a key like `covers/abc/640.webp`; returns the public URL path. */
  put(key: string, body: Uint8Array, contentType: string): Promise<string>;
  /**
   * Deletes the files directly under `prefix` whose URL is not in `keep` and that are older than
   * `graceMs` (so an upload still on its way to the database is never taken). Missing is fine.
   */
  prune(prefix: string, keep: readonly string[], graceMs: number): Promise<number>;
  /** The directory served at /uploads, when files are local. */
  localRoot?: string;
};

export const UPLOADS_PREFIX = "/uploads/";

function safeKey(key: string): string {
  const safe = normalize(key).replace(/^(\.\.(\/|\\|$))+/, "");
  if (safe !== key || key.startsWith("/")) throw new Error(`Unsafe storage key: ${key}`);
  return safe;
}

export function localStorage(root: string): Storage {
  return {
    localRoot: root,
    async prune(prefix, keep, graceMs) {
      const dir = join(root, safeKey(prefix));
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return 0;
      }
      const kept = new Set(keep);
      let removed = 0;
      for (const name of names) {
        if (kept.has(`${UPLOADS_PREFIX}${prefix}/${name}`)) continue;
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
    async put(key, body) {
      const safe = safeKey(key);
      const path = join(root, safe);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
      return `${UPLOADS_PREFIX}${safe}`;
    },
  };
}
