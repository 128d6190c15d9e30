// A book's retailer links, genres and reviews, read and replaced on their own (the book's editor
// saves them with the book through books.service.ts). Same rules: the owner's book only, one
// locked transaction that marks the site changed (`change`).
import type { Db } from "../../../db/client.ts";
import type { RetailerLink, RetailerLinkInput, Review, ReviewInput } from "../../../shared/schemas/book.ts";
import { notFoundError } from "../../lib/domain-error.ts";
import { linkView, reviewView } from "./book-views.ts";
import * as q from "./books.queries.ts";
import { assertOwnBook, change, ownBook } from "./books.service.ts";

export async function listRetailerLinks(db: Db, userId: string, bookId: string): Promise<RetailerLink[]> {
  await assertOwnBook(db, userId, bookId);
  return (await q.selectRetailerLinks(db, bookId)).map(linkView);
}

export async function replaceRetailerLinks(db: Db, userId: string, bookId: string, links: RetailerLinkInput[]) {
  return change(db, userId, async (tx) => {
    await ownBook(tx, userId, bookId);
    await q.syncRetailerLinks(tx, bookId, links);
    await q.updateBook(tx, userId, bookId, {});
    return (await q.selectRetailerLinks(tx, bookId)).map(linkView);
  });
}

export async function listGenres(db: Db, userId: string, bookId: string): Promise<string[]> {
  await assertOwnBook(db, userId, bookId);
  return q.selectGenres(db, bookId);
}

export async function replaceGenres(db: Db, userId: string, bookId: string, genres: string[]) {
  return change(db, userId, async (tx) => {
    await ownBook(tx, userId, bookId);
    await q.replaceGenres(tx, bookId, genres);
    await q.updateBook(tx, userId, bookId, {});
    return q.selectGenres(tx, bookId);
  });
}

export async function listReviews(db: Db, userId: string, bookId: string): Promise<Review[]> {
  await assertOwnBook(db, userId, bookId);
  return (await q.selectReviews(db, bookId)).map(reviewView);
}

export async function addReview(db: Db, userId: string, bookId: string, input: ReviewInput): Promise<Review> {
  return change(db, userId, async (tx) => {
    await ownBook(tx, userId, bookId);
    const row = await q.insertReview(tx, bookId, input);
    await q.updateBook(tx, userId, bookId, {});
    return reviewView(row);
  });
}

export const reviewNotFound = () => notFoundError("Review not found");

export async function updateReview(
  db: Db,
  userId: string,
  bookId: string,
  reviewId: string,
  input: Partial<ReviewInput>,
): Promise<Review> {
  return change(db, userId, async (tx) => {
    await ownBook(tx, userId, bookId);
    const row = await q.updateReview(tx, bookId, reviewId, input);
    if (!row) throw reviewNotFound();
    await q.updateBook(tx, userId, bookId, {});
    return reviewView(row);
  });
}

export async function deleteReview(db: Db, userId: string, bookId: string, reviewId: string): Promise<void> {
  await change(db, userId, async (tx) => {
    await ownBook(tx, userId, bookId);
    if (!(await q.deleteReview(tx, bookId, reviewId))) throw reviewNotFound();
    await q.updateBook(tx, userId, bookId, {});
  });
}
