// Tenant isolation for every books endpoint: another author's book (or review, link) id answers
// exactly what an id that exists nowhere answers, and nothing of the owner's changes — not the
// book, its links, genres, reviews or cover files, and the owner's site is not marked changed.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookGenres, books, retailerLinks, reviews } from "../../../db/schema/index.ts";
import { apiClient, callApi, type Json, readJson } from "../../../testing/api-client.ts";
import { startTestServer, type TestServer } from "../../../testing/test-server.ts";
import { createAuthor, type TestAuthor } from "../../../testing/users.ts";
import { SITE_CHANGED_CHANNEL } from "../sites/site-changes.service.ts";

let s: TestServer;
const dataDir = mkdtempSync(join(tmpdir(), "bookplate-isolation-"));
const changes: string[] = [];
let stopListening: () => Promise<void>;

let owner: TestAuthor;
let intruder: TestAuthor;
let bystander: TestAuthor;
let ownerBook: Json;
let ownerReviewId: string;
let ownerLinkId: string;
let intruderBook: Json;
let png: Buffer;

async function uploadCover(a: { cookie: string }, bookId: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "cover.png");
  const res = await s.api(`/api/books/${bookId}/cover`, { method: "POST", cookie: a.cookie, body: form });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json };
}

function files(dir = join(dataDir, "uploads")): string[] {
  try {
    return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
  } catch {
    return [];
  }
}

/** Everything the owner has that a books endpoint could touch. */
async function ownerState() {
  const db = s.database.db;
  const rows = await db.select().from(books).where(eq(books.userId, owner.id));
  const ids = rows.map((b) => b.id);
  return {
    books: rows.sort((x, y) => x.id.localeCompare(y.id)),
    links: await db.select().from(retailerLinks).where(inArray(retailerLinks.bookId, ids)),
    genres: await db.select().from(bookGenres).where(inArray(bookGenres.bookId, ids)),
    reviews: await db.select().from(reviews).where(inArray(reviews.bookId, ids)),
    files: files(),
  };
}

const ownerChanges = () => changes.filter((c) => c === owner.id).length;

/**
 * Waits until the site-changed notices up to now have arrived (by making a change for a third
 * author and seeing it), then says how many the owner got.
 */
async function settledOwnerChanges(): Promise<number> {
  const before = changes.filter((c) => c === bystander.id).length;
  const r = await readJson(apiClient(s, bystander).books.$post({ json: { title: "Sentinel", author: "B" } }));
  expect(r.status).toBe(201);
  await expect.poll(() => changes.filter((c) => c === bystander.id).length).toBeGreaterThan(before);
  await readJson(apiClient(s, bystander).books[":id"].$delete({ param: { id: r.body.book.id } }));
  await expect.poll(() => changes.filter((c) => c === bystander.id).length).toBeGreaterThan(before + 1);
  return ownerChanges();
}

const NOWHERE = "7d1f0a4e-5b8c-4f3e-9a2b-0c6d8e4f1a3b";

beforeAll(async () => {
  s = await startTestServer({ DATA_DIR: dataDir });
  stopListening = await s.database.listen(SITE_CHANGED_CHANNEL, (p) => changes.push(p));
  png = await sharp({ create: { width: 300, height: 450, channels: 3, background: "#884422" } })
    .png()
    .toBuffer();
  [owner, intruder, bystander] = await Promise.all([createAuthor(s), createAuthor(s), createAuthor(s)]);
  const created = await readJson(
    apiClient(s, owner).books.$post({
      json: {
        title: "Owner's Secret Manuscript",
        author: "Owner",
        subtitle: "Unpublished",
        isFeatured: true,
        retailerLinks: [
          { retailerName: "Shop", retailerUrl: "https://shop.example/1" },
          { retailerName: "Amazon.de", retailerUrl: "https://www.amazon.de/dp/B0SECRET01", priceMinor: 499 },
        ],
        genres: ["Mystery"],
        reviews: [{ reviewText: "Only the owner may edit this.", rating: 5 }],
      },
    }),
  );
  expect(created.status).toBe(201);
  await readJson(apiClient(s, owner).books.$post({ json: { title: "Owner's Second", author: "Owner" } }));
  ownerBook = created.body.book;
  ownerReviewId = ownerBook.reviews[0].id;
  ownerLinkId = ownerBook.retailerLinks[0].id;
  expect((await uploadCover(owner, ownerBook.id)).status).toBe(200);
  intruderBook = (await readJson(apiClient(s, intruder).books.$post({ json: { title: "Intruder's", author: "I" } })))
    .body.book;
});

afterAll(async () => {
  await stopListening?.();
  await s?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Req = (bookId: string, reviewId: string) => Promise<{ status: number; body: Json }>;

/** The books API as the intruder. */
const asIntruder = () => apiClient(s, intruder).books[":id"];

/** Every books endpoint that names a book, as the intruder; the bodies are built when sent (the ids exist after beforeAll). */
const ENDPOINTS: [string, Req][] = [
  ["GET /api/books/:id", (id) => readJson(asIntruder().$get({ param: { id } }))],
  ["PATCH /api/books/:id", (id) => readJson(asIntruder().$patch({ param: { id }, json: { title: "Pwned" } }))],
  [
    "PATCH /api/books/:id with children",
    (id) =>
      readJson(
        asIntruder().$patch({
          param: { id },
          json: { retailerLinks: [], genres: [], reviews: [], isFeatured: false },
        }),
      ),
  ],
  ["DELETE /api/books/:id", (id) => readJson(asIntruder().$delete({ param: { id } }))],
  [
    "PATCH /api/books/:id/visibility",
    (id) => readJson(asIntruder().visibility.$patch({ param: { id }, json: { visible: false } })),
  ],
  ["POST /api/books/:id/move", (id) => readJson(asIntruder().move.$post({ param: { id }, json: { position: 2 } }))],
  ["POST /api/books/:id/cover", (b) => uploadCover(intruder, b)],
  ["DELETE /api/books/:id/cover", (id) => readJson(asIntruder().cover.$delete({ param: { id } }))],
  ["GET /api/books/:id/retailer-links", (id) => readJson(asIntruder()["retailer-links"].$get({ param: { id } }))],
  [
    "PUT /api/books/:id/retailer-links",
    (id) =>
      readJson(
        asIntruder()["retailer-links"].$put({
          param: { id },
          json: { retailerLinks: [{ id: ownerLinkId, retailerName: "Evil", retailerUrl: "https://evil.example" }] },
        }),
      ),
  ],
  [
    "PUT /api/books/:id/retailer-links with stores and prices",
    (id) =>
      readJson(
        asIntruder()["retailer-links"].$put({
          param: { id },
          json: {
            retailerLinks: [
              {
                id: ownerLinkId,
                retailerName: "Amazon",
                retailerUrl: "https://www.amazon.com/dp/EVIL000001",
                storefront: "amazon-us",
                priceMinor: 1,
                currency: "USD",
              },
            ],
          },
        }),
      ),
  ],
  ["GET /api/books/:id/genres", (id) => readJson(asIntruder().genres.$get({ param: { id } }))],
  [
    "PUT /api/books/:id/genres",
    (id) => readJson(asIntruder().genres.$put({ param: { id }, json: { genres: ["Pwned"] } })),
  ],
  ["GET /api/books/:id/reviews", (id) => readJson(asIntruder().reviews.$get({ param: { id } }))],
  [
    "POST /api/books/:id/reviews",
    (id) => readJson(asIntruder().reviews.$post({ param: { id }, json: { reviewText: "Planted", rating: 1 } })),
  ],
  [
    "PATCH /api/books/:id/reviews/:reviewId",
    (id, reviewId) =>
      readJson(
        asIntruder().reviews[":reviewId"].$patch({
          param: { id, reviewId },
          json: { reviewText: "Edited by intruder" },
        }),
      ),
  ],
  [
    "DELETE /api/books/:id/reviews/:reviewId",
    (id, reviewId) => readJson(asIntruder().reviews[":reviewId"].$delete({ param: { id, reviewId } })),
  ],
];

describe("another author's book id", () => {
  for (const [label, request] of ENDPOINTS) {
    it(`${label}: 404 like an id that exists nowhere, and nothing changes`, async () => {
      const before = await ownerState();
      const changedBefore = await settledOwnerChanges();

      const theirs = await request(ownerBook.id, ownerReviewId);
      const nowhere = await request(NOWHERE, NOWHERE);
      expect(theirs.status, JSON.stringify(theirs.body)).toBe(404);
      expect(theirs.body).toEqual({ error: { code: "not_found", message: "Book not found" } });
      // Nothing tells the intruder the id is real.
      expect(theirs).toEqual(nowhere);

      expect(await ownerState()).toEqual(before);
      expect(await settledOwnerChanges()).toBe(changedBefore);
    });
  }

  it("the owner still sees everything as it was", async () => {
    const r = await readJson(apiClient(s, owner).books[":id"].$get({ param: { id: ownerBook.id } }));
    expect(r.status).toBe(200);
    expect(r.body.book).toMatchObject({
      title: "Owner's Secret Manuscript",
      isFeatured: true,
      visibilityEnabled: true,
      coverImageUrl: expect.stringMatching(/^\/uploads\/covers\//),
      genres: ["Mystery"],
      retailerLinks: [
        expect.objectContaining({ id: ownerLinkId, retailerName: "Shop", storefront: null }),
        expect.objectContaining({ storefront: "amazon-de", priceMinor: 499, currency: "EUR" }),
      ],
      reviews: [expect.objectContaining({ id: ownerReviewId, reviewText: "Only the owner may edit this." })],
    });
  });
});

describe("another author's ids inside the intruder's own requests", () => {
  it("lists and capacity show only the intruder's own books", async () => {
    const list = await readJson(apiClient(s, intruder).books.$get());
    expect(list.status).toBe(200);
    expect((list.body.books as Json[]).map((b) => b.id)).toEqual([intruderBook.id]);
    expect(JSON.stringify(list.body)).not.toContain("Owner's");
    expect((await readJson(apiClient(s, intruder).books.capacity.$get())).body.used).toBe(1);
  });

  it("POST /api/books/order with the owner's id is a 404 and reorders nobody", async () => {
    const before = await ownerState();
    const intruderBefore = await readJson(apiClient(s, intruder).books.$get());
    const r = await readJson(
      apiClient(s, intruder).books.order.$post({ json: { ids: [ownerBook.id, intruderBook.id] } }),
    );
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: { code: "not_found", message: "Book not found" } });
    expect(await ownerState()).toEqual(before);
    expect(await readJson(apiClient(s, intruder).books.$get())).toEqual(intruderBefore);
  });

  it("the owner's review id under the intruder's own book is 'Review not found'", async () => {
    const before = await ownerState();
    const patch = await readJson(
      apiClient(s, intruder).books[":id"].reviews[":reviewId"].$patch({
        param: { id: intruderBook.id, reviewId: ownerReviewId },
        json: {
          reviewText: "Edited by intruder",
        },
      }),
    );
    const del = await readJson(
      apiClient(s, intruder).books[":id"].reviews[":reviewId"].$delete({
        param: { id: intruderBook.id, reviewId: ownerReviewId },
      }),
    );
    for (const r of [patch, del]) {
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: { code: "not_found", message: "Review not found" } });
    }
    expect(await ownerState()).toEqual(before);
  });

  it("the owner's link and review ids in the intruder's lists make new rows, never touch the owner's", async () => {
    const before = await ownerState();
    const r = await readJson(
      apiClient(s, intruder).books[":id"].$patch({
        param: { id: intruderBook.id },
        json: {
          retailerLinks: [{ id: ownerLinkId, retailerName: "Mine", retailerUrl: "https://mine.example" }],
          reviews: [{ id: ownerReviewId, reviewText: "Mine" }],
        },
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.book.retailerLinks).toEqual([expect.objectContaining({ retailerName: "Mine" })]);
    expect(r.body.book.retailerLinks[0].id).not.toBe(ownerLinkId);
    expect(r.body.book.reviews[0].id).not.toBe(ownerReviewId);

    const put = await readJson(
      apiClient(s, intruder).books[":id"]["retailer-links"].$put({
        param: { id: intruderBook.id },
        json: {
          retailerLinks: [{ id: ownerLinkId, retailerName: "Again", retailerUrl: "https://again.example" }],
        },
      }),
    );
    expect(put.status).toBe(200);
    expect(put.body.retailerLinks[0].id).not.toBe(ownerLinkId);
    expect(await ownerState()).toEqual(before);
  });

  it("the intruder's site sends no reader to the owner's store links, and their Stats hold none of the owner's clicks", async () => {
    const ua = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0" };
    const ownerClick = await s.onHost(`${owner.subdomain}.localhost`, `/book/${ownerBook.id}/buy/${ownerLinkId}`, ua);
    expect(ownerClick).toMatchObject({ status: 302, headers: { location: "https://shop.example/1" } });
    for (const link of [ownerLinkId, "amazon"]) {
      const r = await s.onHost(`${intruder.subdomain}.localhost`, `/book/${ownerBook.id}/buy/${link}`, ua);
      expect(r.status).toBe(404);
      expect(r.headers.location).toBeUndefined();
    }
    const own = (await readJson(apiClient(s, owner).stats.$get({ query: { days: "7" } }))).body;
    expect(own.stores).toEqual([expect.objectContaining({ bookId: ownerBook.id })]);
    const theirs = (await readJson(apiClient(s, intruder).stats.$get({ query: { days: "7" } }))).body;
    expect(theirs.stores).toEqual([]);
    expect(JSON.stringify(theirs)).not.toContain(ownerBook.id);
  });

  it("featuring the intruder's book leaves the owner's featured book alone", async () => {
    const before = await ownerState();
    expect(
      (
        await readJson(
          apiClient(s, intruder).books[":id"].$patch({ param: { id: intruderBook.id }, json: { isFeatured: true } }),
        )
      ).status,
    ).toBe(200);
    expect(await ownerState()).toEqual(before);
  });

  it("a user id in the body is refused, not used", async () => {
    // An unknown field on purpose, which the typed client refuses to send.
    const r = await callApi(s, intruder, "POST", "/api/books", { title: "T", author: "A", userId: owner.id });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("Unknown field: userId");
    expect((await ownerState()).books).toHaveLength(2);
  });

  it("nothing answers without a session", async () => {
    const anon = { cookie: "" };
    const books = apiClient(s, anon).books;
    const book = books[":id"];
    const id = ownerBook.id;
    const requests: [string, () => Promise<{ status: number }>][] = [
      ["GET /api/books", () => books.$get()],
      ["GET /api/books/:id", () => book.$get({ param: { id } })],
      ["PATCH /api/books/:id", () => book.$patch({ param: { id }, json: { title: "x" } })],
      ["DELETE /api/books/:id", () => book.$delete({ param: { id } })],
      ["PATCH /api/books/:id/visibility", () => book.visibility.$patch({ param: { id }, json: { visible: false } })],
      ["POST /api/books/:id/move", () => book.move.$post({ param: { id }, json: { position: 2 } })],
      ["POST /api/books/order", () => books.order.$post({ json: { ids: [id] } })],
      ["DELETE /api/books/:id/cover", () => book.cover.$delete({ param: { id } })],
      ["GET /api/books/:id/retailer-links", () => book["retailer-links"].$get({ param: { id } })],
      ["PUT /api/books/:id/genres", () => book.genres.$put({ param: { id }, json: { genres: [] } })],
      ["POST /api/books/:id/reviews", () => book.reviews.$post({ param: { id }, json: { reviewText: "x" } })],
      [
        "DELETE /api/books/:id/reviews/:reviewId",
        () => book.reviews[":reviewId"].$delete({ param: { id, reviewId: ownerReviewId } }),
      ],
    ];
    const before = await ownerState();
    for (const [label, request] of requests) {
      expect((await request()).status, label).toBe(401);
    }
    expect((await uploadCover(anon, ownerBook.id)).status).toBe(401);
    expect(await ownerState()).toEqual(before);
  });
});
