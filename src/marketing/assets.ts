// The marketing pages' stylesheet, built by Vite as a second entry (src/web/marketing.css) and
// found through the build manifest: a hashed file, cached for a year like the app's assets.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const found = new Map<string, string | null>();

/** `/assets/marketing-….css`, or null before the app is built (pages still work, unstyled). */
export function marketingStylesheet(webDist: string): string | null {
  if (found.has(webDist)) return found.get(webDist) ?? null;
  const manifest = join(webDist, ".vite", "manifest.json");
  let href: string | null = null;
  if (existsSync(manifest)) {
    const entries = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, { file?: string }>;
    const file = entries["marketing.css"]?.file;
    href = file ? `/${file}` : null;
  }
  // Not remembered while missing: a build may finish after the server started.
  if (href) found.set(webDist, href);
  return href;
}
