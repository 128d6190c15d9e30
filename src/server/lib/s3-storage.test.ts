// Uploads in an S3-compatible store (s3rver, through the real AWS SDK): the Storage interface
// behaves as the local directory does, and the app serves, exports and deletes what is in the bucket.

import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3, type TestS3 } from "../../testing/s3-server.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { createAuthor } from "../../testing/users.ts";
import { s3Storage } from "./s3-storage.ts";
import type { Storage } from "./storage.ts";
import { StoredFileMissing } from "./storage.ts";
import { unzip } from "./zip.ts";

let s3: TestS3;
let storage: Storage;
let s: TestServer;
beforeAll(async () => {
  s3 = await startS3();
  storage = s3Storage({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  });
  s = await startTestServer(s3.env);
});
afterAll(async () => {
  await s?.close();
  await s3?.close();
});

const bytes = (n: number) => new Uint8Array(Array.from({ length: n }, (_, i) => i % 256));

describe("S3 storage", () => {
  it("puts, lists, reads, prunes and removes like the local directory", async () => {
    const url = await storage.put("covers/u1/b1/a-200.webp", bytes(300), "image/webp");
    expect(url).toBe("/uploads/covers/u1/b1/a-200.webp");
    await storage.put("covers/u1/b1/a-400.webp", bytes(500), "image/webp");
    await storage.put("covers/u1/b2/c-200.webp", bytes(10), "image/webp");
    await storage.put("covers/u2/b9/z-200.webp", bytes(10), "image/webp");
    expect(await storage.list("covers/u1")).toEqual([
      "covers/u1/b1/a-200.webp",
      "covers/u1/b1/a-400.webp",
      "covers/u1/b2/c-200.webp",
    ]);
    expect(Buffer.from(await storage.read("covers/u1/b1/a-400.webp")).equals(Buffer.from(bytes(500)))).toBe(true);
    await expect(storage.read("covers/u1/b1/nope.webp")).rejects.toBeInstanceOf(StoredFileMissing);

    // Within the grace nothing goes; after it, only what is not kept, and only directly in the folder.
    expect(await storage.prune("covers/u1/b1", ["/uploads/covers/u1/b1/a-400.webp"], 60_000)).toBe(0);
    expect(await storage.prune("covers/u1/b1", ["/uploads/covers/u1/b1/a-400.webp"], 0)).toBe(1);
    expect(await storage.list("covers/u1")).toEqual(["covers/u1/b1/a-400.webp", "covers/u1/b2/c-200.webp"]);
    // What to keep may be a test of each URL.
    expect(await storage.prune("covers/u1/b2", (url) => url.endsWith("-200.webp"), 0)).toBe(0);
    expect(await storage.prune("covers/u1/b2", (url) => url.endsWith("-400.webp"), 0)).toBe(1);
    expect(await storage.list("covers/u1")).toEqual(["covers/u1/b1/a-400.webp"]);

    await storage.removeAll("covers/u1");
    expect(await storage.list("covers/u1")).toEqual([]);
    expect(await storage.list("covers/u2")).toEqual(["covers/u2/b9/z-200.webp"]);
    await expect(storage.removeAll("")).rejects.toThrow();
    await expect(storage.put("../escape.webp", bytes(1), "image/webp")).rejects.toThrow("Unsafe storage key");
  });

  it("holds the app's uploads: served at /uploads, exported, and gone with the account", async () => {
    const a = await createAuthor(s);
    const form = new FormData();
    const png = await sharp({ create: { width: 500, height: 500, channels: 3, background: "#3366aa" } })
      .png()
      .toBuffer();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "me.png");
    const up = await s.api("/api/profile/photo", { method: "POST", cookie: a.cookie, body: form });
    expect(up.status).toBe(200);
    const url = ((await up.json()) as { profile: { authorPhotoUrl: string } }).profile.authorPhotoUrl;
    expect(url).toMatch(new RegExp(`^/uploads/photos/${a.id}/[0-9a-f-]+-500\\.webp$`));
    expect(await storage.list(`photos/${a.id}`)).toHaveLength(3);

    // Served on the site's own host, from the bucket.
    const served = await fetch(`${s.url}${url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(500);
    expect((await fetch(`${s.url}/uploads/photos/${a.id}/missing-1.webp`)).status).toBe(404);
    expect((await fetch(`${s.url}/uploads/..%2F..%2Fetc/passwd`)).status).toBe(404);

    const archive = unzip(
      new Uint8Array(await (await s.api("/api/account/export", { cookie: a.cookie })).arrayBuffer()),
    );
    expect([...archive.keys()].filter((k) => k.includes(`/images/photos/${a.id}/`))).toHaveLength(3);

    const gone = await s.api("/api/account/delete", {
      method: "POST",
      cookie: a.cookie,
      json: { confirmation: a.email },
    });
    expect(gone.status).toBe(200);
    expect(await storage.list(`photos/${a.id}`)).toEqual([]);
  });
});
