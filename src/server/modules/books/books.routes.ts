// Books API. The owner is always the signed-in user; a book id that is not theirs (or not an id
// at all) answers 404 'Book not found' on every endpoint, and nothing changes.
//
// GET    /api/books                      → 200 { books: Book[] } in display order (Book has overLimit)
// GET    /api/books/capacity             → 200 { tier, limit, used, canAdd }
// POST   /api/books                      body bookCreateSchema → 201 { book } (with retailerLinks,
//                                         genres, reviews); 403 'Book limit exceeded for current plan'
// GET    /api/books/:id                  → 200 { book } with retailerLinks, genres (names), reviews
// PATCH  /api/books/:id                  body bookUpdateSchema (any subset) → 200 { book }; lists given
//                                         replace the stored ones (ids of this book's rows are kept)
// DELETE /api/books/:id                  → 204; positions rewritten 0..n-1
// PATCH  /api/books/:id/visibility       { visible } → 200 { book }; showing one past the limit → 403
// POST   /api/books/:id/move             { position } (1-based, clamped) → 200 { books }
// POST   /api/books/order                { ids } → 200 { books }
// POST   /api/books/:id/cover            multipart, field 'file' → 200 { book }; 400 'Please select an
//                                         image file', 400 damaged image, 413 too large
// DELETE /api/books/:id/cover            → 200 { book } without a cover
// GET|PUT /api/books/:id/retailer-links  PUT { retailerLinks } → 200 { retailerLinks }
// GET|PUT /api/books/:id/genres          PUT { genres } → 200 { genres }
// GET|POST /api/books/:id/reviews        POST review → 201 { review }
// PATCH|DELETE /api/books/:id/reviews/:reviewId → 200 { review } | 204
// Bad input: 400 { error: { code, message, field } } with the spec's messages.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import {
  BOOK_MESSAGES,
  bookCreateSchema,
  bookUpdateSchema,
  COVER_MAX_BYTES,
  genresBodySchema,
  moveSchema,
  orderSchema,
  retailerLinksBodySchema,
  reviewInputSchema,
  reviewUpdateSchema,
  visibilitySchema,
} from "../../../shared/schemas/book.ts";
import type { AppVars } from "../../http/context.ts";
import { errorBody, HttpError, readJson } from "../../http/errors.ts";
import { requireUser } from "../../http/session.ts";
import * as books from "./books.service.ts";
import { coverTooLarge, processCover, storeCover } from "./covers.ts";

/** The one API path that takes a large (multipart) body; the app's small JSON limit skips it. */
export const COVER_UPLOAD_PATH = /^\/api\/books\/[^/]+\/cover\/?$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that cannot be a book's is simply not found (and never reaches the database). */
function idParam(raw: string | undefined, notFound: () => HttpError = books.bookNotFound): string {
  if (!raw || !UUID.test(raw)) throw notFound();
  return raw.toLowerCase();
}

type Deps = { get(k: "deps"): AppVars["Variables"]["deps"] };

/** Old cover files are tidied after the answer is decided; a failure there is logged, not shown. */
async function pruneCovers(c: Deps, userId: string, bookId: string, graceMs?: number) {
  const { database, storage, logger } = c.get("deps");
  try {
    await books.pruneCoverFiles(database.db, storage, userId, bookId, graceMs);
  } catch (err) {
    logger.warn({ err, bookId }, "could not remove old cover files");
  }
}

export function booksRoutes() {
  const r = new Hono<AppVars>();
  const db = (c: Deps) => c.get("deps").database.db;

  r.get("/books", async (c) => {
    const me = await requireUser(c);
    return c.json({ books: await books.listBooks(db(c), me.id) });
  });

  r.get("/books/capacity", async (c) => {
    const me = await requireUser(c);
    return c.json(await books.getCapacity(db(c), me.id));
  });

  r.post("/books", async (c) => {
    const me = await requireUser(c);
    const input = await readJson(c, bookCreateSchema);
    return c.json({ book: await books.createBook(db(c), me.id, input) }, 201);
  });

  r.post("/books/order", async (c) => {
    const me = await requireUser(c);
    const { ids } = await readJson(c, orderSchema);
    return c.json({ books: await books.orderBooks(db(c), me.id, ids) });
  });

  r.get("/books/:id", async (c) => {
    const me = await requireUser(c);
    return c.json({ book: await books.getBook(db(c), me.id, idParam(c.req.param("id"))) });
  });

  r.patch("/books/:id", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    const input = await readJson(c, bookUpdateSchema);
    return c.json({ book: await books.updateBook(db(c), me.id, id, input) });
  });

  r.delete("/books/:id", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    await books.deleteBook(db(c), me.id, id);
    await pruneCovers(c, me.id, id, 0);
    return c.body(null, 204);
  });

  r.patch("/books/:id/visibility", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    const { visible } = await readJson(c, visibilitySchema);
    return c.json({ book: await books.setVisibility(db(c), me.id, id, visible) });
  });

  r.post("/books/:id/move", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    const { position } = await readJson(c, moveSchema);
    return c.json({ books: await books.moveBook(db(c), me.id, id, position) });
  });

  r.post(
    "/books/:id/cover",
    bodyLimit({
      // The file plus the multipart envelope.
      maxSize: COVER_MAX_BYTES + 64 * 1024,
      onError: (c) =>
        c.json(errorBody("payload_too_large", coverTooLarge().message, { field: "file" }), 413, {
          Connection: "close",
        }),
    }),
    async (c) => {
      const me = await requireUser(c);
      const id = idParam(c.req.param("id"));
      const { database, storage } = c.get("deps");
      // Another author's id is refused before the upload is even read.
      await books.assertOwnBook(database.db, me.id, id);
      if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
        throw new HttpError(400, "Send the cover as multipart/form-data with a 'file' field", { field: "file" });
      }
      let file: unknown;
      try {
        file = (await c.req.parseBody()).file;
      } catch {
        throw new HttpError(400, "The upload could not be read. Please try again.", { field: "file" });
      }
      if (!(file instanceof File)) throw new HttpError(400, BOOK_MESSAGES.notImage, { field: "file" });
      if (file.size > COVER_MAX_BYTES) throw coverTooLarge();
      const processed = await processCover(new Uint8Array(await file.arrayBuffer()));
      const variants = await storeCover(storage, { userId: me.id, bookId: id }, processed);
      const book = await books.setCover(database.db, me.id, id, variants);
      await pruneCovers(c, me.id, id);
      return c.json({ book });
    },
  );

  r.delete("/books/:id/cover", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    const book = await books.setCover(db(c), me.id, id, null);
    await pruneCovers(c, me.id, id);
    return c.json({ book });
  });

  r.get("/books/:id/retailer-links", async (c) => {
    const me = await requireUser(c);
    return c.json({ retailerLinks: await books.listRetailerLinks(db(c), me.id, idParam(c.req.param("id"))) });
  });

  r.put("/books/:id/retailer-links", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    const { retailerLinks } = await readJson(c, retailerLinksBodySchema);
    return c.json({ retailerLinks: await books.replaceRetailerLinks(db(c), me.id, id, retailerLinks) });
  });

  r.get("/books/:id/genres", async (c) => {
    const me = await requireUser(c);
    return c.json({ genres: await books.listGenres(db(c), me.id, idParam(c.req.param("id"))) });
  });

  r.put("/books/:id/genres", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    const { genres } = await readJson(c, genresBodySchema);
    return c.json({ genres: await books.replaceGenres(db(c), me.id, id, genres) });
  });

  r.get("/books/:id/reviews", async (c) => {
    const me = await requireUser(c);
    return c.json({ reviews: await books.listReviews(db(c), me.id, idParam(c.req.param("id"))) });
  });

  r.post("/books/:id/reviews", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    const input = await readJson(c, reviewInputSchema.omit({ id: true }));
    return c.json({ review: await books.addReview(db(c), me.id, id, input) }, 201);
  });

  r.patch("/books/:id/reviews/:reviewId", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    const reviewId = idParam(c.req.param("reviewId"), books.reviewNotFound);
    const input = await readJson(c, reviewUpdateSchema);
    return c.json({ review: await books.updateReview(db(c), me.id, id, reviewId, input) });
  });

  r.delete("/books/:id/reviews/:reviewId", async (c) => {
    const me = await requireUser(c);
    const id = idParam(c.req.param("id"));
    const reviewId = idParam(c.req.param("reviewId"), books.reviewNotFound);
    await books.deleteReview(db(c), me.id, id, reviewId);
    return c.body(null, 204);
  });

  return r;
}
