// The books screens' view of /api/books. One place knows the wire shape, so the screens
// stay the same if the API's field names move.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Currency } from "../../../shared/enums.ts";
import { ApiError, api, errorMessage, UNEXPECTED_ERROR } from "../../lib/api.ts";

export type RetailerLink = { id?: string; retailerName: string; retailerUrl: string; retailerIcon?: string | null };
export type Review = {
  id?: string;
  rating: number | null;
  reviewerName: string | null;
  reviewText: string;
  reviewDate: string | null;
};

export type Book = {
  id: string;
  title: string;
  subtitle: string | null;
  author: string;
  isbn: string | null;
  shortBlurb: string | null;
  releaseDate: string | null;
  seriesName: string | null;
  orderInSeries: number | null;
  coverImageUrl: string | null;
  primaryPriceMinor: number | null;
  primaryCurrency: Currency;
  amazonUrl: string | null;
  formatEbook: boolean;
  formatPaperback: boolean;
  formatHardback: boolean;
  formatAudiobook: boolean;
  formatKindleUnlimited: boolean;
  isFeatured: boolean;
  visibilityEnabled: boolean;
  sortOrder: number;
  userRating: number | null;
  showUserRating: boolean;
  bestsellerBadgeEnabled: boolean;
  promoBadgeEnabled: boolean;
  promoBadgeText: string | null;
  amazonRatingEnabled: boolean;
  reviewSnippet: string | null;
  audiobookEnabled: boolean;
  narratorName: string | null;
  audioSampleUrl: string | null;
  additionalStoresEnabled: boolean;
  /** Beyond the plan's limit by position: kept, but not shown publicly. */
  overLimit?: boolean;
  retailerLinks?: RetailerLink[];
  genres?: string[];
  reviews?: Review[];
};

export type Capacity = { tier: string; limit: number; used: number; canAdd: boolean };

/** What the form sends; the API's create/update body. */
export type BookInput = Omit<
  Book,
  "id" | "coverImageUrl" | "sortOrder" | "overLimit" | "retailerLinks" | "genres" | "reviews"
> & {
  retailerLinks: RetailerLink[];
  genres: string[];
  reviews: Review[];
};

export { ApiError };

export const UNEXPECTED = UNEXPECTED_ERROR;

function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  return api<T>(path, body === undefined ? { method } : { method, json: body });
}

/** Multipart for the cover; the shared helper speaks JSON only. */
async function upload<T>(path: string, form: FormData): Promise<T> {
  const res = await fetch(path, { method: "POST", credentials: "same-origin", body: form });
  const data = (await res.json().catch(() => null)) as { error?: { message?: string; field?: string } } | null;
  if (!res.ok) throw new ApiError(data?.error?.message ?? UNEXPECTED_ERROR, res.status, data?.error?.field);
  return data as T;
}

/** Lists and single reads may come bare or wrapped ({books}, {book}); accept both. */
function unwrap<T>(data: unknown, key: string): T {
  if (data && typeof data === "object" && key in data) return (data as Record<string, T>)[key] as T;
  return data as T;
}

export { errorMessage };

export function isLimitError(error: unknown): boolean {
  return error instanceof ApiError && error.code === "plan_limit_reached";
}

/** Genres may arrive as rows ({genreName}) or as plain names; the form wants names. */
function normalise(book: Book): Book {
  const genres = (book.genres as unknown[] | undefined)?.map((g) =>
    typeof g === "string" ? g : String((g as { genreName?: unknown }).genreName ?? ""),
  );
  return genres ? { ...book, genres: genres.filter(Boolean) } : book;
}

export const booksApi = {
  list: async () => unwrap<Book[]>(await request("GET", "/api/books"), "books"),
  get: async (id: string) =>
    normalise(unwrap<Book>(await request("GET", `/api/books/${encodeURIComponent(id)}`), "book")),
  capacity: () => request<Capacity>("GET", "/api/books/capacity"),
  create: async (input: BookInput) => unwrap<Book>(await request("POST", "/api/books", input), "book"),
  update: async (id: string, input: BookInput) =>
    unwrap<Book>(await request("PATCH", `/api/books/${encodeURIComponent(id)}`, input), "book"),
  remove: (id: string) => request<unknown>("DELETE", `/api/books/${encodeURIComponent(id)}`),
  setVisibility: (id: string, visible: boolean) =>
    request<unknown>("PATCH", `/api/books/${encodeURIComponent(id)}/visibility`, { visible }),
  move: (id: string, position: number) =>
    request<unknown>("POST", `/api/books/${encodeURIComponent(id)}/move`, { position }),
  order: (ids: string[]) => request<unknown>("POST", "/api/books/order", { ids }),
  uploadCover: (id: string, file: File) => {
    const form = new FormData();
    form.append("file", file);
    return upload<unknown>(`/api/books/${encodeURIComponent(id)}/cover`, form);
  },
  removeCover: (id: string) => request<unknown>("DELETE", `/api/books/${encodeURIComponent(id)}/cover`),
  /** The signed-in author's subdomain, for 'Update & View'; null before they have a website. */
  subdomain: async (): Promise<string | null> => {
    const data = await request<{ website: { subdomain?: string | null } | null }>("GET", "/api/onboarding");
    return data.website?.subdomain || null;
  },
};

export const bookKeys = {
  all: ["books"] as const,
  list: ["books", "list"] as const,
  one: (id: string) => ["books", "one", id] as const,
  capacity: ["books", "capacity"] as const,
};

export function useBooks() {
  return useQuery({ queryKey: bookKeys.list, queryFn: booksApi.list });
}

export function useBook(id: string) {
  return useQuery({ queryKey: bookKeys.one(id), queryFn: () => booksApi.get(id) });
}

export function useCapacity() {
  return useQuery({ queryKey: bookKeys.capacity, queryFn: booksApi.capacity });
}

export function useInvalidateBooks() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: bookKeys.all });
}

export function useBookMutation<A>(fn: (arg: A) => Promise<unknown>) {
  const invalidate = useInvalidateBooks();
  return useMutation({ mutationFn: fn, onSettled: invalidate });
}
