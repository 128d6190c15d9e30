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
import { collection } from "../../http/collection.ts";
import type { AppVars } from "../../http/context.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { readUploadedFile, tidyUploads, uploadBody, uploadLimit } from "../../http/uploads.ts";
import * as details from "./book-details.service.ts";
import * as books from "./books.service.ts";
import { coverTooLarge, processCover, storeCover } from "./covers.ts";

type Deps = { get(k: "deps"): AppVars["Variables"]["deps"] };

function pruneCovers(c: Deps, userId: string, bookId: string, graceMs?: number) {
  const { database, storage, logger } = c.get("deps");
  return tidyUploads(logger, "cover", () => books.pruneCoverFiles(database.db, storage, userId, bookId, graceMs));
}

// ---------------------------------------------------------------------------------------------
// Declarations.

const route = routes({ tags: ["Books"] });
const oneBook = json(z.object({ book: bookDetailSchema }), "The book with its retailer links, genres and reviews");
const bookRow = json(z.object({ book: bookSchema }), "The book");
const bookList = json(z.object({ books: z.array(bookSchema) }), "The author's books in display order");

const book = collection(route, "/books", {
  one: oneBook,
  notFound: books.bookNotFound,
  list: { summary: "The author's books in display order (with overLimit)", ok: { 200: bookList } },
  create: {
    summary: "Add a book (title and author required)",
    description:
      "403 `plan_limit_reached` when the plan's limit is reached. 409 on `seriesName` when it names a new series whose address (/series/{slug}) another series of the author's has.",
    body: bookCreateSchema,
    errors: [403, 409],
  },
  read: { summary: "One book with its retailer links, genres and reviews" },
  update: {
    summary: "Change any of a book's fields; lists given replace the stored ones",
    description:
      "409 on `seriesName` as when adding a book; 403 `plan_limit_reached` when `visibilityEnabled: true` would pass the plan's limit.",
    body: bookUpdateSchema,
    errors: [403, 409],
  },
  remove: { summary: "Delete a book (positions are rewritten)" },
});
const capacity = route.get("/books/capacity", {
  summary: "The plan's book limit and how much of it is used",
  ok: { 200: json(capacitySchema, "The capacity") },
});
// 404: an id that is not one of the author's books.
const order = route.post("/books/order", {
  summary: "Put the books in this order",
  body: orderSchema,
  ok: { 200: bookList },
  errors: [404],
});
const visibility = route.patch("/books/{id}/visibility", {
  summary: "Show or hide a book on the public site",
  description: "403 `plan_limit_reached` when showing it would pass the plan's limit.",
  body: visibilitySchema,
  ok: { 200: bookRow },
  errors: [403],
});
const move = route.post("/books/{id}/move", {
  summary: "Move a book to a 1-based position (clamped)",
  body: moveSchema,
  ok: { 200: bookList },
});
const uploadCover = route.post("/books/{id}/cover", {
  summary: "Upload a cover image",
  description: `Stored as WebP in three widths. At most ${COVER_MAX_BYTES / 1024 / 1024} MB.`,
  // The body is documented, not validated by zod: the handler reads it after the owner check.
  body: uploadBody,
  middleware: [uploadLimit(COVER_MAX_BYTES, coverTooLarge)],
  ok: { 200: bookRow },
  errors: [413],
});
const removeCover = route.delete("/books/{id}/cover", { summary: "Remove the cover", ok: { 200: bookRow } });
const links = route.record("put", "/books/{id}/retailer-links", {
  answer: json(z.object({ retailerLinks: z.array(retailerLinkSchema) }), "The book's retailer links"),
  read: "The book's retailer links",
  save: "Replace the book's retailer links (ids of kept rows stay)",
  body: retailerLinksBodySchema,
});
const genres = route.record("put", "/books/{id}/genres", {
  answer: json(z.object({ genres: z.array(z.string()) }), "The book's genres, in order"),
  read: "The book's genres",
  save: "Replace the book's genres",
  body: genresBodySchema,
});
const review = collection(route, "/books/{id}/reviews", {
  one: json(z.object({ review: reviewSchema }), "The review"),
  item: "reviewId",
  notFound: details.reviewNotFound,
  list: {
    summary: "The book's reviews",
    ok: { 200: json(z.object({ reviews: z.array(reviewSchema) }), "The reviews") },
  },
  create: { summary: "Add a review", body: reviewInputSchema.omit({ id: true }) },
  update: { summary: "Change a review", body: reviewUpdateSchema },
  remove: { summary: "Delete a review" },
});

export function booksRoutes() {
  return apiRouter()
    .openapi(...answer(book.list, async (c, me) => ({ books: await books.listBooks(db(c), me.id) })))
    .openapi(...answer(capacity, (c, me) => books.getCapacity(db(c), me.id)))
    .openapi(
      ...answer(book.create, async (c, me) => ({ book: await books.createBook(db(c), me.id, c.req.valid("json")) })),
    )
    .openapi(
      ...answer(order, async (c, me) => ({ books: await books.orderBooks(db(c), me.id, c.req.valid("json").ids) })),
    )
    .openapi(...answer(book.read, async (c, me) => ({ book: await books.getBook(db(c), me.id, book.id(c)) })))
    .openapi(
      ...answer(book.update, async (c, me) => ({
        book: await books.updateBook(db(c), me.id, book.id(c), c.req.valid("json")),
      })),
    )
    .openapi(
      ...answer(book.remove, async (c, me) => {
        const id = book.id(c);
        await books.deleteBook(db(c), me.id, id);
        await pruneCovers(c, me.id, id, 0);
      }),
    )
    .openapi(
      ...answer(visibility, async (c, me) => ({
        book: await books.setVisibility(db(c), me.id, book.id(c), c.req.valid("json").visible),
      })),
    )
    .openapi(
      ...answer(move, async (c, me) => ({
        books: await books.moveBook(db(c), me.id, book.id(c), c.req.valid("json").position),
      })),
    )
    .openapi(
      ...answer(uploadCover, async (c, me) => {
        const id = book.id(c);
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
        const covered = await books.setCover(database.db, me.id, id, variants);
        await pruneCovers(c, me.id, id);
        return { book: covered };
      }),
    )
    .openapi(
      ...answer(removeCover, async (c, me) => {
        const id = book.id(c);
        const uncovered = await books.setCover(db(c), me.id, id, null);
        await pruneCovers(c, me.id, id);
        return { book: uncovered };
      }),
    )
    .openapi(
      ...answer(links.get, async (c, me) => ({
        retailerLinks: await details.listRetailerLinks(db(c), me.id, book.id(c)),
      })),
    )
    .openapi(
      ...answer(links.save, async (c, me) => {
        const links = c.req.valid("json").retailerLinks;
        return { retailerLinks: await details.replaceRetailerLinks(db(c), me.id, book.id(c), links) };
      }),
    )
    .openapi(...answer(genres.get, async (c, me) => ({ genres: await details.listGenres(db(c), me.id, book.id(c)) })))
    .openapi(
      ...answer(genres.save, async (c, me) => ({
        genres: await details.replaceGenres(db(c), me.id, book.id(c), c.req.valid("json").genres),
      })),
    )
    .openapi(
      ...answer(review.list, async (c, me) => ({ reviews: await details.listReviews(db(c), me.id, book.id(c)) })),
    )
    .openapi(
      ...answer(review.create, async (c, me) => ({
        review: await details.addReview(db(c), me.id, book.id(c), c.req.valid("json")),
      })),
    )
    .openapi(
      ...answer(review.update, async (c, me) => {
        const reviewId = review.id(c);
        return { review: await details.updateReview(db(c), me.id, book.id(c), reviewId, c.req.valid("json")) };
      }),
    )
    .openapi(
      ...answer(review.remove, async (c, me) => {
        const reviewId = review.id(c);
        await details.deleteReview(db(c), me.id, book.id(c), reviewId);
      }),
    );
}
