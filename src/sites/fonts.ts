// The site themes' fonts, self-hosted so that no reader's browser asks a font service.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Context } from "hono";
import { isFontFile } from "./theme.ts";

const FONTS_DIR = join(process.cwd(), "node_modules", "@fontsource");
const fontCache = new Map<string, ArrayBuffer>();

/** /_fonts/{family}-{weight}.woff2, self-hosted from @fontsource (latin subset only). */
export async function serveFont(c: Context): Promise<Response> {
  const m = /^\/_fonts\/([a-z-]+)-(\d{3})\.woff2$/.exec(c.req.path);
  if (!m?.[1] || !m[2] || !isFontFile(m[1], m[2])) return c.text("Not found", 404);
  const key = `${m[1]}-${m[2]}`;
  let data = fontCache.get(key);
  if (!data) {
    try {
      const buf = await readFile(join(FONTS_DIR, m[1], "files", `${m[1]}-latin-${m[2]}-normal.woff2`));
      data = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
    } catch {
      return c.text("Not found", 404);
    }
    fontCache.set(key, data);
  }
  return new Response(data, {
    headers: {
      "Content-Type": "font/woff2",
      "Cache-Control": "public, max-age=31536000, immutable",
      "Access-Control-Allow-Origin": "*",
    },
  });
}
