// Books API. The owner is always the signed-in user; a book id that is not theirs (or not an id
// at all) answers 404 'Book not found' on every endpoint, and nothing changes.
//
// GET    /api/books                      → 200 { books: Book[] } in display order (Book has overLimit)
// GET    /api/books/capacity             → 200 { tier, limit, used, shown, hiddenByPlan, canAdd }
// POST   /api/books                      body bookCreateSchema → 201 { book } (with retailerLinks,
//                                         genres, reviews); 403 'Book limit exceeded for current plan';
//                                         409 on seriesName: a new series name with another's address
// GET    /api/books/:id                  → 200 { book } with retailerLinks, genres (names), reviews
// PATCH  /api/books/:id                  body bookUpdateSchema (any subset) → 200 { book }; lists given
//                                         replace the stored ones (ids of this book's rows are kept);
//                                         visibilityEnabled past the plan's limit → 403
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
// Bad input: 400 { error: { code, message, field } } with the spec's messages. Each route is
// declared with its schemas (ADR 021): the OpenAPI document and the app's types come from these.
import { z } from "zod";
import {
  BOOK_MESSAGES,
  bookCreateSchema,
  bookDetailSchema,
  bookSchema,
  bookUpdateSchema,
  COVER_MAX_BYTES,
  capacitySchema,
  genresBodySchema,
  moveSchema,
  orderSchema,
  retailerLinkSchema,
  retailerLinksBodySchema,
  reviewInputSchema,
  reviewSchema,
  reviewUpdateSchema,
  visibilitySchema,
} from "../../../shared/schemas/book.ts";
import type { AppVars } from "../../http/context.ts";
import { idParam } from "../../http/ids.ts";
import { apiRoute, apiRouter, errors, idParams, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { readUploadedFile, tidyUploads, uploadBody, uploadLimit } from "../../http/uploads.ts";
import type { DomainError } from "../../lib/domain-error.ts";
import * as details from "./book-details.service.ts";
import * as books from "./books.service.ts";
import { coverTooLarge, processCover, storeCover } from "./covers.ts";

/** A path id that cannot be a book's (or `notFound`'s row) is not found. */
const bookId = (raw: string | undefined, notFound: () => DomainError = books.bookNotFound) => idParam(raw, notFound);

type Deps = { get(k: "deps"): AppVars["Variables"]["deps"] };
const db = (c: Deps) => c.get("deps").database.db;

function pruneCovers(c: Deps, userId: string, bookId: string, graceMs?: number) {
  const { database, storage, logger } = c.get("deps");
  return tidyUploads(logger, "cover", () => books.pruneCoverFiles(database.db, storage, userId, bookId, graceMs));
}

// ---------------------------------------------------------------------------------------------
// Declarations.

const tags = ["Books"];
const reviewParams = z.object({ id: z.string(), reviewId: z.string() });
const oneBook = json(z.object({ book: bookDetailSchema }), "The book with its retailer links, genres and reviews");
const bookRow = json(z.object({ book: bookSchema }), "The book");
const bookList = json(z.object({ books: z.array(bookSchema) }), "The author's books in display order");
const retailerLinks = json(z.object({ retailerLinks: z.array(retailerLinkSchema) }), "The book's retailer links");
const genres = json(z.object({ genres: z.array(z.string()) }), "The book's genres, in order");
const oneReview = json(z.object({ review: reviewSchema }), "The review");

const list = apiRoute({
  method: "get",
  path: "/books",
  tags,
  summary: "The author's books in display order (with overLimit)",
  responses: { 200: bookList },
});
const capacity = apiRoute({
  method: "get",
  path: "/books/capacity",
  tags,
  summary: "The plan's book limit and how much of it is used",
  responses: { 200: json(capacitySchema, "The capacity") },
});
const create = apiRoute({
  method: "post",
  path: "/books",
  tags,
  summary: "Add a book (title and author required)",
  description:
    "403 `plan_limit_reached` when the plan's limit is reached. 409 on `seriesName` when it names a new series whose address (/series/{slug}) another series of the author's has.",
  request: { body: jsonBody(bookCreateSchema) },
  responses: { 201: oneBook, ...errors(400, 403, 409, 415) },
});
const order = apiRoute({
  method: "post",
  path: "/books/order",
  tags,
  summary: "Put the books in this order",
  request: { body: jsonBody(orderSchema) },
  responses: { 200: bookList, ...errors(400, 404, 415) },
});
const read = apiRoute({
  method: "get",
  path: "/books/{id}",
  tags,
  summary: "One book with its retailer links, genres and reviews",
  request: { params: idParams },
  responses: { 200: oneBook, ...errors(404) },
});
const update = apiRoute({
  method: "patch",
  path: "/books/{id}",
  tags,
  summary: "Change any of a book's fields; lists given replace the stored ones",
  description:
    "409 on `seriesName` as when adding a book; 403 `plan_limit_reached` when `visibilityEnabled: true` would pass the plan's limit.",
  request: { params: idParams, body: jsonBody(bookUpdateSchema) },
  responses: { 200: oneBook, ...errors(400, 403, 404, 409, 415) },
});
const remove = apiRoute({
  method: "delete",
  path: "/books/{id}",
  tags,
  summary: "Delete a book (positions are rewritten)",
  request: { params: idParams },
  responses: { 204: { description: "Deleted" }, ...errors(404) },
});
const visibility = apiRoute({
  method: "patch",
  path: "/books/{id}/visibility",
  tags,
  summary: "Show or hide a book on the public site",
  description: "403 `plan_limit_reached` when showing it would pass the plan's limit.",
  request: { params: idParams, body: jsonBody(visibilitySchema) },
  responses: { 200: bookRow, ...errors(400, 403, 404, 415) },
});
const move = apiRoute({
  method: "post",
  path: "/books/{id}/move",
  tags,
  summary: "Move a book to a 1-based position (clamped)",
  request: { params: idParams, body: jsonBody(moveSchema) },
  responses: { 200: bookList, ...errors(400, 404, 415) },
});
const uploadCover = apiRoute({
  method: "post",
  path: "/books/{id}/cover",
  tags,
  summary: "Upload a cover image",
  description: `Stored as WebP in three widths. At most ${COVER_MAX_BYTES / 1024 / 1024} MB.`,
  // The body is documented, not validated by zod: the handler reads it after the owner check.
  request: { params: idParams, body: uploadBody },
  middleware: [uploadLimit(COVER_MAX_BYTES, coverTooLarge)],
  responses: { 200: bookRow, ...errors(400, 404, 413) },
});
const removeCover = apiRoute({
  method: "delete",
  path: "/books/{id}/cover",
  tags,
  summary: "Remove the cover",
  request: { params: idParams },
  responses: { 200: bookRow, ...errors(404) },
});
const readLinks = apiRoute({
  method: "get",
  path: "/books/{id}/retailer-links",
  tags,
  summary: "The book's retailer links",
  request: { params: idParams },
  responses: { 200: retailerLinks, ...errors(404) },
});
const replaceLinks = apiRoute({
  method: "put",
  path: "/books/{id}/retailer-links",
  tags,
  summary: "Replace the book's retailer links (ids of kept rows stay)",
  request: { params: idParams, body: jsonBody(retailerLinksBodySchema) },
  responses: { 200: retailerLinks, ...errors(400, 404, 415) },
});
const readGenres = apiRoute({
  method: "get",
  path: "/books/{id}/genres",
  tags,
  summary: "The book's genres",
  request: { params: idParams },
  responses: { 200: genres, ...errors(404) },
});
const replaceGenres = apiRoute({
  method: "put",
  path: "/books/{id}/genres",
  tags,
  summary: "Replace the book's genres",
  request: { params: idParams, body: jsonBody(genresBodySchema) },
  responses: { 200: genres, ...errors(400, 404, 415) },
});
const readReviews = apiRoute({
  method: "get",
  path: "/books/{id}/reviews",
  tags,
  summary: "The book's reviews",
  request: { params: idParams },
  responses: { 200: json(z.object({ reviews: z.array(reviewSchema) }), "The reviews"), ...errors(404) },
});
const addReview = apiRoute({
  method: "post",
  path: "/books/{id}/reviews",
  tags,
  summary: "Add a review",
  request: { params: idParams, body: jsonBody(reviewInputSchema.omit({ id: true })) },
  responses: { 201: oneReview, ...errors(400, 404, 415) },
});
const updateReview = apiRoute({
  method: "patch",
  path: "/books/{id}/reviews/{reviewId}",
  tags,
  summary: "Change a review",
  request: { params: reviewParams, body: jsonBody(reviewUpdateSchema) },
  responses: { 200: oneReview, ...errors(400, 404, 415) },
});
const removeReview = apiRoute({
  method: "delete",
  path: "/books/{id}/reviews/{reviewId}",
  tags,
  summary: "Delete a review",
  request: { params: reviewParams },
  responses: { 204: { description: "Deleted" }, ...errors(404) },
});

export function booksRoutes() {
  return apiRouter()
    .openapi(list, async (c) => {
      const me = await requireUser(c);
      return c.json({ books: await books.listBooks(db(c), me.id) }, 200);
    })
    .openapi(capacity, async (c) => {
      const me = await requireUser(c);
      return c.json(await books.getCapacity(db(c), me.id), 200);
    })
    .openapi(create, async (c) => {
      const me = await requireUser(c);
      return c.json({ book: await books.createBook(db(c), me.id, c.req.valid("json")) }, 201);
    })
    .openapi(order, async (c) => {
      const me = await requireUser(c);
      return c.json({ books: await books.orderBooks(db(c), me.id, c.req.valid("json").ids) }, 200);
    })
    .openapi(read, async (c) => {
      const me = await requireUser(c);
      return c.json({ book: await books.getBook(db(c), me.id, bookId(c.req.valid("param").id)) }, 200);
    })
    .openapi(update, async (c) => {
      const me = await requireUser(c);
      const id = bookId(c.req.valid("param").id);
      return c.json({ book: await books.updateBook(db(c), me.id, id, c.req.valid("json")) }, 200);
    })
    .openapi(remove, async (c) => {
      const me = await requireUser(c);
      const id = bookId(c.req.valid("param").id);
      await books.deleteBook(db(c), me.id, id);
      await pruneCovers(c, me.id, id, 0);
      return c.body(null, 204);
    })
    .openapi(visibility, async (c) => {
      const me = await requireUser(c);
      const id = bookId(c.req.valid("param").id);
      return c.json({ book: await books.setVisibility(db(c), me.id, id, c.req.valid("json").visible) }, 200);
    })
    .openapi(move, async (c) => {
      const me = await requireUser(c);
      const id = bookId(c.req.valid("param").id);
      return c.json({ books: await books.moveBook(db(c), me.id, id, c.req.valid("json").position) }, 200);
    })
    .openapi(uploadCover, async (c) => {
      const me = await requireUser(c);
      const id = bookId(c.req.valid("param").id);
      const { database, storage } = c.get("deps");
      // Another author's id is refused before the upload is even read.
      await books.assertOwnBook(database.db, me.id, id);
      const bytes = await readUploadedFile(c, {
        maxBytes: COVER_MAX_BYTES,
        tooLarge: coverTooLarge,
        notAFile: BOOK_MESSAGES.notImage,
        what: "cover",
      });
      const processed = await processCover(bytes);
      const variants = await storeCover(storage, { userId: me.id, bookId: id }, processed);
      const book = await books.setCover(database.db, me.id, id, variants);
      await pruneCovers(c, me.id, id);
      return c.json({ book }, 200);
    })
    .openapi(removeCover, async (c) => {
      const me = await requireUser(c);
      const id = bookId(c.req.valid("param").id);
      const book = await books.setCover(db(c), me.id, id, null);
      await pruneCovers(c, me.id, id);
      return c.json({ book }, 200);
    })
    .openapi(readLinks, async (c) => {
      const me = await requireUser(c);
      const id = bookId(c.req.valid("param").id);
      return c.json({ retailerLinks: await details.listRetailerLinks(db(c), me.id, id) }, 200);
    })
    .openapi(replaceLinks, async (c) => {
      const me = await requireUser(c);
      const id = bookId(c.req.valid("param").id);
      const links = c.req.valid("json").retailerLinks;
      return c.json({ retailerLinks: await details.replaceRetailerLinks(db(c), me.id, id, links) }, 200);
    })
    .openapi(readGenres, async (c) => {
      const me = await requireUser(c);
      return c.json({ genres: await details.listGenres(db(c), me.id, bookId(c.req.valid("param").id)) }, 200);
    })
    .openapi(replaceGenres, async (c) => {
      const me = await requireUser(c);
      const id = bookId(c.req.valid("param").id);
      return c.json({ genres: await details.replaceGenres(db(c), me.id, id, c.req.valid("json").genres) }, 200);
    })
    .openapi(readReviews, async (c) => {
      const me = await requireUser(c);
      return c.json({ reviews: await details.listReviews(db(c), me.id, bookId(c.req.valid("param").id)) }, 200);
    })
    .openapi(addReview, async (c) => {
      const me = await requireUser(c);
      const id = bookId(c.req.valid("param").id);
      return c.json({ review: await details.addReview(db(c), me.id, id, c.req.valid("json")) }, 201);
    })
    .openapi(updateReview, async (c) => {
      const me = await requireUser(c);
      const { id: rawId, reviewId: rawReviewId } = c.req.valid("param");
      const id = bookId(rawId);
      const reviewId = bookId(rawReviewId, details.reviewNotFound);
      return c.json({ review: await details.updateReview(db(c), me.id, id, reviewId, c.req.valid("json")) }, 200);
    })
    .openapi(removeReview, async (c) => {
      const me = await requireUser(c);
      const { id: rawId, reviewId: rawReviewId } = c.req.valid("param");
      await details.deleteReview(db(c), me.id, bookId(rawId), bookId(rawReviewId, details.reviewNotFound));
      return c.body(null, 204);
    });
}
