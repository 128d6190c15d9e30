// Cover uploads over HTTP: judged by content (never the name or declared type), turned upright,
// stripped of metadata, stored as WebP variants through the storage interface and served back;
// everything that is not a usable image gets a clear 4xx and leaves the book and storage as
// they were.
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books } from "../../../db/schema/index.ts";
import { COVER_MAX_BYTES, COVER_WIDTHS } from "../../../shared/schemas/book.ts";
import { apiClient, type Json, readJson } from "../../../testing/api-client.ts";
import { filesUnder, pngClaiming } from "../../../testing/files.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";
import type { Storage } from "../../lib/storage.ts";
import { SITE_CHANGED_CHANNEL } from "../sites/site-changes.service.ts";
import { processCover, storeCover } from "./covers.ts";

let s: TestServer;
// Our own DATA_DIR, so the test can look at what reached the uploads directory.
const dataDir = mkdtempSync(join(tmpdir(), "bookplate-covers-"));
const uploadsDir = join(dataDir, "uploads");
/** Every file under the uploads directory, relative to it. */
const storedFiles = () => filesUnder(uploadsDir);
const changes: string[] = [];
let stopListening: () => Promise<void>;

beforeAll(async () => {
  s = await startTestServer({ DATA_DIR: dataDir });
  stopListening = await s.database.listen(SITE_CHANGED_CHANNEL, (p) => changes.push(p));
});
afterAll(async () => {
  await stopListening?.();
  await s?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function createBook(a: TestAuthor, title = "Covered"): Promise<Json> {
  const res = await apiClient(s, a).books.$post({ json: { title, author: "Jane Author" } });
  expect(res.status).toBe(201);
  return (await readJson(res)).body.book;
}

async function upload(a: { cookie: string }, bookId: string, bytes: Uint8Array, name: string, type: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  return readJson(s.api(`/api/books/${bookId}/cover`, { method: "POST", cookie: a.cookie, body: form }));
}

const bookRow = async (id: string) => (await s.database.db.select().from(books).where(eq(books.id, id)))[0];

/** A 600×900 picture with EXIF (camera, GPS-ish comment) and an ICC profile attached. */
/** A cover-sized picture of noise (which compresses badly, so a cut lands in the pixels). */
const noisyCover = () =>
  sharp({
    create: {
      width: 800,
      height: 1200,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  });

async function photoWithMetadata(format: "png" | "jpeg") {
  const img = sharp({ create: { width: 600, height: 900, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .withMetadata({
      exif: { IFD0: { Copyright: "SECRET-OWNER", Artist: "SECRET-ARTIST", ImageDescription: "GPS 51.5N 0.1W" } },
    })
    .withIccProfile("p3");
  return format === "png" ? img.png().toBuffer() : img.jpeg().toBuffer();
}

describe("cover upload", () => {
  it("accepts a PNG whatever it is called, strips its metadata and serves WebP variants", async () => {
    const a = await createAuthor(s);
    const book = await createBook(a);
    const before = changes.filter((c) => c === a.id).length;
    const png = await photoWithMetadata("png");
    expect((await sharp(png).metadata()).exif).toBeDefined();

    // Named and typed as something else entirely: the bytes decide.
    const r = await upload(a, book.id, png, "notes.txt", "text/plain");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const variants = r.body.book.coverImageVariants as { width: number; height: number; url: string }[];
    // 600 wide: the 800 variant would be an enlargement, so the original width stands in for it.
    expect(variants.map((v) => v.width)).toEqual([200, 400, 600]);
    expect(COVER_WIDTHS).toEqual([200, 400, 800]);
    expect(variants.map((v) => v.height)).toEqual(variants.map((v) => Math.round((v.width * 3) / 2)));
    expect(r.body.book.coverImageUrl).toBe(variants.at(-1)?.url);
    for (const v of variants)
      expect(v.url).toMatch(new RegExp(`^/uploads/covers/${a.id}/${book.id}/[0-9a-f-]+-${v.width}\\.webp$`));
    expect(storedFiles()).toEqual(expect.arrayContaining(variants.map((v) => v.url.replace("/uploads/", ""))));
    await expect.poll(() => changes.filter((c) => c === a.id).length).toBeGreaterThan(before);

    for (const v of variants) {
      const res = await fetch(`${s.url}${v.url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/webp");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const bytes = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta).toMatchObject({ format: "webp", width: v.width, height: v.height });
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(bytes.includes("SECRET-OWNER")).toBe(false);
      expect(bytes.includes("GPS 51.5N")).toBe(false);
    }

    // The stored book and its detail read agree.
    const got = await apiClient(s, a).books[":id"].$get({ param: { id: book.id } });
    expect((await readJson(got)).body.book.coverImageVariants).toEqual(variants);
  });

  it("accepts a JPEG named .png and turns a sideways photo upright", async () => {
    const a = await createAuthor(s);
    const book = await createBook(a);
    // 300 wide, 200 high, with EXIF orientation 6 (rotate 90° clockwise to view).
    const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#3366cc" } })
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: "SECRET-OWNER" } } })
      .jpeg()
      .toBuffer();
    const r = await upload(a, book.id, jpeg, "cover.png", "image/png");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // Upright it is 200×300; a small original is never enlarged, so one variant.
    expect(r.body.book.coverImageVariants).toEqual([{ width: 200, height: 300, url: expect.any(String) }]);
    const served = Buffer.from(await (await fetch(`${s.url}${r.body.book.coverImageUrl}`)).arrayBuffer());
    const meta = await sharp(served).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 200, height: 300 });
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
  });

  it("accepts the other picture formats people have: WebP, GIF, AVIF, TIFF, progressive JPEG", async () => {
    const a = await createAuthor(s);
    const book = await createBook(a);
    const base = () => sharp({ create: { width: 240, height: 360, channels: 3, background: "#114477" } });
    const samples: [string, Buffer][] = [
      ["webp", await base().webp().toBuffer()],
      ["gif", await base().gif().toBuffer()],
      ["avif", await base().avif({ effort: 0 }).toBuffer()],
      ["tiff", await base().tiff().toBuffer()],
      ["jpeg", await base().jpeg({ progressive: true }).toBuffer()],
    ];
    for (const [format, bytes] of samples) {
      const r = await upload(a, book.id, bytes, `cover.${format}`, "application/octet-stream");
      expect(r.status, `${format}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.book.coverImageVariants.map((v: Json) => [v.width, v.height])).toEqual([
        [200, 300],
        [240, 360],
      ]);
    }
  });

  it("replaces a cover with a new one under a fresh name, and removes it", async () => {
    const a = await createAuthor(s);
    const book = await createBook(a);
    const first = await upload(a, book.id, await photoWithMetadata("jpeg"), "a.jpg", "image/jpeg");
    const second = await upload(a, book.id, await photoWithMetadata("png"), "a.jpg", "image/jpeg");
    expect(second.status).toBe(200);
    expect(second.body.book.coverImageUrl).not.toBe(first.body.book.coverImageUrl);

    const del = await apiClient(s, a).books[":id"].cover.$delete({ param: { id: book.id } });
    expect(del.status).toBe(200);
    expect((await readJson(del)).body.book).toMatchObject({ coverImageUrl: null, coverImageVariants: null });
    expect(await bookRow(book.id)).toMatchObject({ coverImageUrl: null, coverImageVariants: null });
  });

  it("deletes the files of a replaced or removed cover, and every file once the book is deleted", async () => {
    const a = await createAuthor(s);
    const book = await createBook(a);
    const filesOf = () => {
      const dir = join(uploadsDir, "covers", a.id, book.id);
      try {
        return readdirSync(dir).sort();
      } catch {
        return [];
      }
    };
    const namesOf = (b: Json) => (b.coverImageVariants as { url: string }[]).map((v) => v.url.split("/").at(-1)).sort();
    // Files count as old once the upload that wrote them is surely in the database.
    const age = () => {
      const past = new Date(Date.now() - 2 * 60_000);
      for (const f of filesOf()) utimesSync(join(uploadsDir, "covers", a.id, book.id, f), past, past);
    };

    const first = await upload(a, book.id, await photoWithMetadata("jpeg"), "a.jpg", "image/jpeg");
    expect(filesOf()).toEqual(namesOf(first.body.book));
    age();
    const second = await upload(a, book.id, await photoWithMetadata("png"), "b.png", "image/png");
    expect(filesOf()).toEqual(namesOf(second.body.book));

    // A file another upload has just written, not yet in the database, is left alone.
    const inFlight = join(uploadsDir, "covers", a.id, book.id, "00000000-0000-4000-8000-000000000000-400.webp");
    writeFileSync(inFlight, "pending");
    age();
    writeFileSync(inFlight, "pending");
    const del = await apiClient(s, a).books[":id"].cover.$delete({ param: { id: book.id } });
    expect(del.status).toBe(200);
    expect(filesOf()).toEqual(["00000000-0000-4000-8000-000000000000-400.webp"]);

    await upload(a, book.id, await photoWithMetadata("png"), "c.png", "image/png");
    expect((await apiClient(s, a).books[":id"].$delete({ param: { id: book.id } })).status).toBe(204);
    expect(filesOf()).toEqual([]);
  });

  describe("refuses what is not a usable image, leaving the book and storage unchanged", () => {
    let a: TestAuthor;
    let book: Json;
    let coverUrl: string;
    beforeAll(async () => {
      a = await createAuthor(s);
      book = await createBook(a);
      const ok = await upload(a, book.id, await photoWithMetadata("png"), "cover.png", "image/png");
      coverUrl = ok.body.book.coverImageUrl;
    });

    async function refused(
      bytes: Uint8Array,
      name: string,
      type: string,
      expected: { status: number; message: string | RegExp },
    ) {
      const row = await bookRow(book.id);
      const files = storedFiles();
      const r = await upload(a, book.id, bytes, name, type);
      expect(r.status, JSON.stringify(r.body)).toBe(expected.status);
      expect(r.body.error.field).toBe("file");
      if (typeof expected.message === "string") expect(r.body.error.message).toBe(expected.message);
      else expect(r.body.error.message).toMatch(expected.message);
      expect(await bookRow(book.id)).toEqual(row);
      expect(row?.coverImageUrl).toBe(coverUrl);
      expect(storedFiles()).toEqual(files);
    }

    it("text named .png", async () => {
      const bytes = new TextEncoder().encode("this is not a picture, whatever its name says\n".repeat(20));
      await refused(bytes, "cover.png", "image/png", { status: 400, message: "Please select an image file" });
    });

    it("an HTML page pretending to be a JPEG", async () => {
      const bytes = new TextEncoder().encode("<html><script>alert(1)</script></html>");
      await refused(bytes, "cover.jpg", "image/jpeg", { status: 400, message: "Please select an image file" });
    });

    it("an SVG (a document that can reference other files)", async () => {
      const svg = new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="300"><rect width="200" height="300" fill="red"/></svg>',
      );
      await refused(svg, "cover.svg", "image/svg+xml", { status: 400, message: "Please select an image file" });
    });

    it("an empty file", async () => {
      await refused(new Uint8Array(0), "cover.png", "image/png", {
        status: 400,
        message: "Please select an image file",
      });
    });

    it("a PNG cut off half way (damaged)", async () => {
      const png = await noisyCover().png().toBuffer();
      await refused(png.subarray(0, Math.floor(png.length / 2)), "cover.png", "image/png", {
        status: 400,
        message: "This image could not be read: the file may be damaged. Please choose another image.",
      });
    });

    it("a JPEG with its middle overwritten (damaged)", async () => {
      const jpeg = Buffer.from(await noisyCover().jpeg().toBuffer());
      jpeg.fill(0xff, 2000, jpeg.length - 2);
      await refused(jpeg, "cover.jpg", "image/jpeg", {
        status: 400,
        message: "This image could not be read: the file may be damaged. Please choose another image.",
      });
    });

    it("a small file that claims billions of pixels", async () => {
      await refused(await pngClaiming(60_000, 60_000), "bomb.png", "image/png", {
        status: 413,
        message: "This image is too large (60000 × 60000 pixels). Please use one of at most 50 megapixels.",
      });
    });

    it("a file just over the size limit", async () => {
      const big = new Uint8Array(COVER_MAX_BYTES + 1024);
      big.set(await photoWithMetadata("png"));
      await refused(big, "big.png", "image/png", { status: 413, message: "Cover image must be 10 MB or smaller" });
    });

    it("an upload far over the size limit (refused before it is read)", async () => {
      const huge = new Uint8Array(COVER_MAX_BYTES * 3);
      await refused(huge, "huge.png", "image/png", { status: 413, message: "Cover image must be 10 MB or smaller" });
    });

    it("no file field, or a body that is not multipart", async () => {
      const form = new FormData();
      form.append("image", new Blob([await photoWithMetadata("png")], { type: "image/png" }), "cover.png");
      const wrongField = await s.api(`/api/books/${book.id}/cover`, { method: "POST", cookie: a.cookie, body: form });
      expect(wrongField.status).toBe(400);
      expect((await wrongField.json()).error.message).toBe("Please select an image file");
      // JSON where a file belongs on purpose: the typed client sends the cover only as a form.
      const json = await s.api(`/api/books/${book.id}/cover`, { method: "POST", cookie: a.cookie, json: {} });
      expect(json.status).toBe(400);
      expect((await readJson(json)).body.error.message).toBe(
        "Send the cover as multipart/form-data with a 'file' field",
      );
      expect((await bookRow(book.id))?.coverImageUrl).toBe(coverUrl);
    });
  });

  it("needs a session", async () => {
    const a = await createAuthor(s);
    const book = await createBook(a);
    const r = await upload({ cookie: "" }, book.id, await photoWithMetadata("png"), "c.png", "image/png");
    expect(r.status).toBe(401);
    expect((await apiClient(s).books[":id"].cover.$delete({ param: { id: book.id } })).status).toBe(401);
    expect((await bookRow(book.id))?.coverImageUrl).toBeNull();
  });
});

describe("storeCover", () => {
  it("writes every variant through the storage interface under the owner's safe prefix", async () => {
    const puts: { key: string; type: string; bytes: number }[] = [];
    const storage: Storage = {
      async put(key, body, contentType) {
        puts.push({ key, type: contentType, bytes: body.byteLength });
        return `https://cdn.example.com/${key}`;
      },
      prune: async () => 0,
      list: async () => [],
      read: async () => new Uint8Array(0),
      removeAll: async () => undefined,
    };
    const processed = await processCover(await photoWithMetadata("jpeg"));
    const variants = await storeCover(storage, { userId: "u/../x", bookId: "b 1" }, processed);
    expect(puts.map((p) => p.type)).toEqual(processed.map(() => "image/webp"));
    for (const p of puts) expect(p.key).toMatch(/^covers\/u____x\/b_1\/[0-9a-f-]{36}-\d+\.webp$/);
    expect(variants.map((v) => v.url)).toEqual(puts.map((p) => `https://cdn.example.com/${p.key}`));
    expect(variants.map((v) => v.width)).toEqual(processed.map((p) => p.width));
  });
});
