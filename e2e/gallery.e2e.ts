// The features page's screenshots are made by `npm run gallery` from the running product. This
// runs the same capture on every CI run (into a throwaway directory): if a screen it photographs
// is gone or no longer renders, the build fails instead of the gallery silently going stale. It
// also checks that the committed gallery lists every screen the script takes, with its files.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { expect, it } from "vitest";
import {
  captureGallery,
  GALLERY_DIR,
  GALLERY_SITES_DOMAIN,
  GALLERY_WIDTHS,
  type GalleryEntry,
  SHOTS,
} from "../scripts/gallery.ts";
import { browserDescribe, setupE2E } from "./fixtures.ts";

const e = setupE2E(() => ({ SITES_DOMAIN: GALLERY_SITES_DOMAIN }));

browserDescribe("the features gallery", () => {
  it("photographs all 13 screens of the running product, as WebP in two widths", async () => {
    const out = mkdtempSync(join(tmpdir(), "bookplate-gallery-"));
    try {
      const entries = await captureGallery({ server: e.server, browser: e.browser, outDir: out });
      expect(entries.map((x) => x.slug)).toEqual(SHOTS.map((s) => s.slug));
      expect(entries).toHaveLength(13);
      for (const entry of entries) {
        for (const width of GALLERY_WIDTHS) {
          const meta = await sharp(join(out, entry.files[String(width)] ?? "")).metadata();
          expect(meta.format).toBe("webp");
          expect(meta.width).toBe(width);
        }
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);

  it("has every screen of the script in the committed gallery", () => {
    const committed = JSON.parse(readFileSync(join(GALLERY_DIR, "gallery.json"), "utf8")) as GalleryEntry[];
    expect(committed.map((x) => x.slug)).toEqual(SHOTS.map((s) => s.slug));
    for (const entry of committed) {
      for (const width of GALLERY_WIDTHS)
        expect(existsSync(join(GALLERY_DIR, entry.files[String(width)] ?? ""))).toBe(true);
    }
  });
});
