// The books screens' view of /api/books, typed by the route declarations (ADR 021): one place
// knows the calls, so the screens stay the same if the API's paths move.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BookCreateInput } from "../../../shared/schemas/book.ts";
import { ApiError, client, fileUpload, read, readField } from "../../lib/api.ts";

export type { Book, BookDetail } from "../../../shared/schemas/book.ts";

/** What the form sends: every field of the create/update body. */
export type BookInput = Required<BookCreateInput>;

export { ApiError, errorMessage } from "../../lib/api.ts";

export function isLimitError(error: unknown): boolean {
  return error instanceof ApiError && error.code === "plan_limit_reached";
}

const book = client.books[":id"];
const param = (id: string) => ({ param: { id } });

export const booksApi = {
  list: () => readField(client.books.$get(), "books"),
  get: (id: string) => readField(book.$get(param(id)), "book"),
  create: (input: BookInput) => readField(client.books.$post({ json: input }), "book"),
  update: (id: string, input: BookInput) => readField(book.$patch({ ...param(id), json: input }), "book"),
  remove: (id: string) => read(book.$delete(param(id))),
  setVisibility: (id: string, visible: boolean) => read(book.visibility.$patch({ ...param(id), json: { visible } })),
  move: (id: string, position: number) => read(book.move.$post({ ...param(id), json: { position } })),
  order: (ids: string[]) => read(client.books.order.$post({ json: { ids } })),
  uploadCover: (id: string, file: File) => read(book.cover.$post(param(id), fileUpload(file))),
  removeCover: (id: string) => read(book.cover.$delete(param(id))),
};

export const bookKeys = {
  all: ["books"] as const,
  list: ["books", "list"] as const,
  one: (id: string) => ["books", "one", id] as const,
};

export function useBooks() {
  return useQuery({ queryKey: bookKeys.list, queryFn: booksApi.list });
}

export function useBook(id: string) {
  return useQuery({ queryKey: bookKeys.one(id), queryFn: () => booksApi.get(id) });
}

export function useInvalidateBooks() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: bookKeys.all });
}

export function useBookMutation<A>(fn: (arg: A) => Promise<unknown>) {
  const invalidate = useInvalidateBooks();
  return useMutation({ mutationFn: fn, onSettled: invalidate });
}
