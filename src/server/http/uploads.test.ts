// The author photo, hero image and post image uploads over HTTP: real pictures through sharp are
// stored as WebP in sizes and shown on the public site; what is not a usable picture gets a clear
// 4xx and changes nothing; nobody reaches another author's pictures.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HERO_MAX_BYTES, PHOTO_MAX_BYTES, POST_IMAGE_MAX_BYTES } from "../../shared/schemas/uploads.ts";
import { type Json, readJson } from "../../testing/api-client.ts";
import { filesUnder, pngClaiming } from "../../testing/files.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { createAuthor, createSignedInUser, type TestAuthor } from "../../testing/users.ts";

let s: TestServer;
const dataDir = mkdtempSync(join(tmpdir(), "bookplate-uploads-"));
const uploadsDir = join(dataDir, "uploads");
const storedFiles = () => filesUnder(uploadsDir);
beforeAll(async () => {
  s = await startTestServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await s?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ROUTES = {
  photo: { path: "/api/profile/photo", max: PHOTO_MAX_BYTES, label: "Photo" },
  hero: { path: "/api/site/hero", max: HERO_MAX_BYTES, label: "Hero image" },
  post: { path: "/api/posts/images", max: POST_IMAGE_MAX_BYTES, label: "Image" },
} as const;
type Kind = keyof typeof ROUTES;

async function upload(a: { cookie: string }, kind: Kind, bytes: Uint8Array, name = "p.png", type = "image/png") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  return readJson(s.api(ROUTES[kind].path, { method: "POST", cookie: a.cookie, body: form }));
}

const picture = (width: number, height: number, format: "png" | "jpeg" = "jpeg") => {
  const img = sharp({
    create: { width, height, channels: 3, background: { r: 30, g: 90, b: 160 } },
  }).withMetadata({ exif: { IFD0: { Artist: "SECRET-ARTIST" } } });
  return format === "png" ? img.png().toBuffer() : img.jpeg().toBuffer();
};

const profileOf = async (a: TestAuthor) =>
  ((await (await s.api("/api/profile", { cookie: a.cookie })).json()) as Json).profile;
const homeOf = async (a: TestAuthor) => (await (await s.api("/api/site/home", { cookie: a.cookie })).json()) as Json;

describe("author photo", () => {
  it("is cropped square, stored as WebP in sizes without metadata, and shown on About with srcset", async () => {
    const a = await createAuthor(s);
    // A bio, so that the About page is one readers see (ADR 052).
    await s.api("/api/profile", { method: "PATCH", cookie: a.cookie, json: { bio: "<p>Bio</p>" } });
    const r = await upload(a, "photo", await picture(1200, 1600), "me.jpg", "image/jpeg");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const variants = r.body.profile.authorPhotoVariants as { width: number; height: number; url: string }[];
    expect(variants.map((v) => [v.width, v.height])).toEqual([
      [200, 200],
      [400, 400],
      [800, 800],
    ]);
    expect(r.body.profile.authorPhotoUrl).toBe(variants[2]?.url);
    for (const v of variants) {
      expect(v.url).toMatch(new RegExp(`^/uploads/photos/${a.id}/[0-9a-f-]+-\\d+\\.webp$`));
      const served = await fetch(`${s.url}${v.url}`);
      expect(served.status).toBe(200);
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(meta.format).toBe("webp");
      expect(meta.exif).toBeUndefined();
    }
    const about = (await s.onHost(`${a.subdomain}.localhost`, "/about")).body;
    expect(about).toContain(`srcSet="${variants.map((v) => `${v.url} ${v.width}w`).join(", ")}"`);
    expect(about).toContain('class="square"');
    expect(about).toContain(
      `<meta property="og:image" content="http://${a.subdomain}.localhost:${s.port}${variants[2]?.url}"/>`,
    );

    // A new upload replaces it (old files go); saving the Bio form with the same address keeps it.
    const again = await upload(a, "photo", await picture(500, 500, "png"));
    expect(again.body.profile.authorPhotoVariants.map((v: Json) => v.width)).toEqual([200, 400, 500]);
    const same = await s.api("/api/profile", {
      method: "PATCH",
      cookie: a.cookie,
      json: { authorPhotoUrl: again.body.profile.authorPhotoUrl, tagline: "Still me" },
    });
    expect(((await same.json()) as Json).profile.authorPhotoVariants).toHaveLength(3);
    // An https address instead: the upload is dropped.
    await s.api("/api/profile", {
      method: "PATCH",
      cookie: a.cookie,
      json: { authorPhotoUrl: "https://img.example/me.jpg" },
    });
    expect(await profileOf(a)).toMatchObject({
      authorPhotoUrl: "https://img.example/me.jpg",
      authorPhotoVariants: null,
    });
    // Files replaced less than a minute ago stay (an upload may still be on its way); both sets here.
    expect(storedFiles().filter((f) => f.startsWith(`photos/${a.id}/`))).toHaveLength(6);

    const removed = await s.api("/api/profile/photo", { method: "DELETE", cookie: a.cookie });
    expect(removed.status).toBe(200);
    expect(await profileOf(a)).toMatchObject({ authorPhotoUrl: null, authorPhotoVariants: null });
    expect(storedFiles().filter((f) => f.startsWith(`photos/${a.id}/`))).toEqual([]);
  });
});

describe("hero image", () => {
  it("is stored in three widths; the home page loads the one the screen needs", async () => {
    const a = await createAuthor(s);
    const r = await upload(a, "hero", await picture(2400, 1000));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.heroImageUrl).toMatch(new RegExp(`^/uploads/heroes/${a.id}/[0-9a-f-]+-1920\\.webp$`));
    const stem = String(r.body.heroImageUrl).replace(/-1920\.webp$/, "");
    const home = (await s.onHost(`${a.subdomain}.localhost`, "/")).body;
    expect(home).toContain(`.hero{background-image:url("${stem}-1920.webp")}`);
    expect(home).toContain(`@media (max-width:768px){.hero{background-image:url("${stem}-768.webp")}}`);
    expect(home).toContain(
      `@media (min-width:769px) and (max-width:1280px){.hero{background-image:url("${stem}-1280.webp")}}`,
    );

    // The Home Page form sends the address back with other changes: the upload stays.
    const page = await homeOf(a);
    const saved = await s.api("/api/site/home", {
      method: "PUT",
      cookie: a.cookie,
      json: { ...page, heroTextColor: "#fefefe" },
    });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as Json).heroImageUrl).toBe(r.body.heroImageUrl);
    expect((await s.onHost(`${a.subdomain}.localhost`, "/")).body).toContain(`${stem}-768.webp`);

    const removed = await s.api("/api/site/hero", { method: "DELETE", cookie: a.cookie });
    expect(((await removed.json()) as Json).heroImageUrl).toBeNull();
    expect(storedFiles().filter((f) => f.startsWith(`heroes/${a.id}/`))).toEqual([]);
    expect((await s.onHost(`${a.subdomain}.localhost`, "/")).body).not.toContain(stem);
  });

  it("needs a website", async () => {
    const u = await createSignedInUser(s);
    const r = await upload(u, "hero", await picture(800, 400));
    expect(r.status).toBe(404);
    expect(storedFiles().some((f) => f.includes(u.id))).toBe(false);
  });
});

describe("post images", () => {
  it("are stored in two widths for the editor; the public post offers both", async () => {
    const a = await createAuthor(s);
    const r = await upload(a, "post", await picture(2000, 1000));
    expect(r.status).toBe(201);
    const img = r.body.image;
    expect(img).toMatchObject({ width: 1280, height: 640 });
    expect(img.variants.map((v: Json) => v.width)).toEqual([640, 1280]);
    const stem = String(img.url).replace(/-1280\.webp$/, "");
    const post = await s.api("/api/posts", {
      method: "POST",
      cookie: a.cookie,
      json: {
        title: "Pictured",
        content: `<p>Look:</p><img src="${img.url}" alt="The harbour at dusk" width="1280" height="640">`,
      },
    });
    expect(((await post.json()) as Json).post.content).toContain(`<img src="${img.url}" alt="The harbour at dusk"`);
    const page = (await s.onHost(`${a.subdomain}.localhost`, "/blog/pictured")).body;
    expect(page).toContain(`srcset="${stem}-640.webp 640w, ${img.url} 1280w"`);
    expect(page).toContain('loading="lazy"');
    // Its social card is the post's picture.
    expect(page).toContain(`<meta property="og:image" content="http://${a.subdomain}.localhost:${s.port}${img.url}"/>`);
  });

  it("keep an author's srcset out: only our own uploads get one", async () => {
    const a = await createAuthor(s);
    await s.api("/api/posts", {
      method: "POST",
      cookie: a.cookie,
      json: {
        title: "Sneaky",
        content: '<p>x</p><img src="https://img.example/a.jpg" srcset="javascript:alert(1) 1x" alt="a">',
      },
    });
    const page = (await s.onHost(`${a.subdomain}.localhost`, "/blog/sneaky")).body;
    expect(page).not.toContain("javascript:");
    expect(page).toContain('<img src="https://img.example/a.jpg" alt="a" loading="lazy" decoding="async"');
  });
});

describe("every upload route", () => {
  const kinds = Object.keys(ROUTES) as Kind[];

  it("needs a session", async () => {
    for (const kind of kinds) {
      expect((await upload({ cookie: "" }, kind, await picture(300, 300))).status, kind).toBe(401);
    }
  });

  for (const kind of kinds) {
    const { max, label } = ROUTES[kind];
    it(`${kind}: refuses what is not a usable picture, with a clear message, and changes nothing`, async () => {
      const a = await createAuthor(s);
      const beforeProfile = await profileOf(a);
      const beforeHome = await homeOf(a);
      const before = storedFiles();
      const cases: [Uint8Array, string, string, number, string][] = [
        [
          new TextEncoder().encode("not a picture\n".repeat(20)),
          "x.png",
          "image/png",
          400,
          "Please select an image file",
        ],
        [
          new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'),
          "x.svg",
          "image/svg+xml",
          400,
          "Please select an image file",
        ],
        [new Uint8Array(0), "x.png", "image/png", 400, "Please select an image file"],
        [
          await pngClaiming(60_000, 60_000),
          "bomb.png",
          "image/png",
          413,
          "This image is too large (60000 × 60000 pixels). Please use one of at most 50 megapixels.",
        ],
        [
          new Uint8Array(max + 1024),
          "big.png",
          "image/png",
          413,
          `${label} must be ${max / 1024 / 1024} MB or smaller`,
        ],
      ];
      for (const [bytes, name, type, status, message] of cases) {
        const r = await upload(a, kind, bytes, name, type);
        expect(r.status, `${kind} ${name}`).toBe(status);
        expect(r.body.error).toMatchObject({ message, field: "file" });
      }
      const notMultipart = await s.api(ROUTES[kind].path, { method: "POST", cookie: a.cookie, json: { file: "x" } });
      expect(notMultipart.status).toBe(400);
      expect(await profileOf(a)).toEqual(beforeProfile);
      expect(await homeOf(a)).toEqual(beforeHome);
      expect(storedFiles()).toEqual(before);
    });
  }

  it("only ever change the signed-in author's own pictures", async () => {
    const a = await createAuthor(s);
    const b = await createAuthor(s);
    await upload(a, "photo", await picture(400, 400));
    await upload(a, "hero", await picture(1600, 800));
    const aProfile = await profileOf(a);
    const aHome = await homeOf(a);
    // B uploads and removes: only B's rows and folders change.
    await upload(b, "photo", await picture(400, 400));
    await s.api("/api/profile/photo", { method: "DELETE", cookie: b.cookie });
    await s.api("/api/site/hero", { method: "DELETE", cookie: b.cookie });
    expect(await profileOf(a)).toEqual(aProfile);
    expect(await homeOf(a)).toEqual(aHome);
    // A 400-pixel photo gives two sizes (never enlarged); a 1600-wide hero three.
    expect(storedFiles().filter((f) => f.startsWith(`photos/${a.id}/`))).toHaveLength(2);
    expect(storedFiles().filter((f) => f.startsWith(`heroes/${a.id}/`))).toHaveLength(3);
  });
});
