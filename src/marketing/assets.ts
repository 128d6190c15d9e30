// The marketing pages' stylesheet, built by Vite as a second entry (src/web/marketing.css) and
// found through the build manifest: a hashed file, cached for a year like the app's assets.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type MarketingAssets = { stylesheet: string; fonts: string[] };

const found = new Map<string, MarketingAssets>();

/**
 * `/assets/marketing-….css` and the font files it uses (to preload), or null before the app is
 * built (the pages still work, unstyled).
 */
export function marketingAssets(webDist: string): MarketingAssets | null {
  const known = found.get(webDist);
  if (known) return known;
  const manifest = join(webDist, ".vite", "manifest.json");
  if (!existsSync(manifest)) return null;
  const entries = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, { file?: string; assets?: string[] }>;
  const css = entries["marketing.css"];
  if (!css?.file) return null;
  const assets = {
    stylesheet: `/${css.file}`,
    fonts: (css.assets ?? []).filter((a) => a.endsWith(".woff2")).map((a) => `/${a}`),
  };
  // Not remembered while missing: a build may finish after the server started.
  found.set(webDist, assets);
  return assets;
}
