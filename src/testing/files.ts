// What tests of uploads look at: the files that reached a directory, and pictures that lie.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import sharp from "sharp";

/** Every file under `dir` (at any depth), relative to it, sorted; none when it does not exist. */
export function filesUnder(dir: string, prefix = ""): string[] {
  let out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  for (const e of entries) {
    const full = join(dir, e);
    if (statSync(full).isDirectory()) out = out.concat(filesUnder(full, `${prefix}${e}/`));
    else out.push(`${prefix}${e}`);
  }
  return out.sort();
}

/** A valid PNG whose header claims `width`×`height` pixels: a decompression bomb's calling card. */
export async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000" } })
      .png()
      .toBuffer(),
  );
  // Signature (8), then the IHDR chunk: length (4), type (4), data (13), CRC (4).
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

/** A form with one `file` field: a plain PNG of `width`×`height` in `background`, as a browser uploads it. */
export async function pngForm(
  width: number,
  height: number,
  background: string | { r: number; g: number; b: number },
  name = "picture.png",
): Promise<FormData> {
  const png = await sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), name);
  return form;
}
