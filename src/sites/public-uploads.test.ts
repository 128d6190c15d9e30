// S3_PUBLIC_URL: a public site sends readers to the CDN for uploaded pictures — in img src,
// srcset and the hero's CSS — while the stored addresses stay /uploads/{key}.
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books, profiles, subscriptions, user, websites } from "../db/schema/index.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";

let s: TestServer;
let bookId: string;
const variants = (key: string) =>
  [400, 800].map((width) => ({ width, height: width, url: `/uploads/${key}-${width}.webp` }));

beforeAll(async () => {
  s = await startTestServer({ S3_PUBLIC_URL: "https://cdn.example.com/media/" });
  const db = s.database.db;
  const id = crypto.randomUUID();
  await db.insert(user).values({ id, name: "Cdn", email: "cdn@example.com", emailVerified: true });
  await db.insert(profiles).values({ id, name: "Cdn Author", email: "cdn@example.com" });
  await db.insert(websites).values({
    userId: id,
    subdomain: "cdn",
    websiteName: "Cdn Site",
    heroImageUrl: "/uploads/hero/u/h-1920.webp",
    heroImageVariants: variants("hero/u/h"),
  });
  await db.insert(subscriptions).values({ userId: id, tier: "mini", status: "active" });
  const [book] = await db
    .insert(books)
    .values({
      userId: id,
      title: "Far Away",
      slug: "far-away",
      author: "Cdn Author",
      coverImageUrl: "/uploads/covers/u/b/c-800.webp",
      coverImageVariants: variants("covers/u/b/c"),
    })
    .returning({ id: books.id });
  bookId = book?.id ?? "";
});
afterAll(async () => {
  await s?.close();
});

describe("uploads from a public address", () => {
  it("points pictures and the hero at the CDN, and the style hash still holds", async () => {
    const home = await s.onHost("cdn.localhost", "/");
    expect(home.status).toBe(200);
    expect(home.body).toContain('url("https://cdn.example.com/media/hero/u/h-1920.webp")');
    expect(home.body).toContain("https://cdn.example.com/media/covers/u/b/c-400.webp 400w");
    expect(home.body).not.toMatch(/["'(\s,]\/uploads\//);
    // The inline style is allowed by its hash: the hash is of the rewritten style.
    const style = /<style>([\s\S]*?)<\/style>/.exec(home.body)?.[1] ?? "";
    const hash = createHash("sha256").update(style).digest("base64");
    expect(String(home.headers["content-security-policy"])).toContain(`'sha256-${hash}'`);

    const page = await s.onHost("cdn.localhost", "/book/far-away");
    expect(page.body).toMatch(/src="https:\/\/cdn\.example\.com\/media\/covers\/u\/b\/c-\d+\.webp"/);
    // The stored address is unchanged: the app still serves /uploads for the dashboard and old links.
    const [row] = await s.database.db.select().from(books).where(eq(books.id, bookId));
    expect(row?.coverImageUrl).toBe("/uploads/covers/u/b/c-800.webp");
  });
});
