// A series of an author's books (ADR 034): its name (the books' series name) and description,
// and the reading order of its books. One schema for the Series screen and the API.
import { z } from "zod";
import { namedObject } from "./fragments.ts";
import { plainText } from "./text.ts";

export const SERIES_LIMITS = { name: 200, description: 2000, books: 100 } as const;

export const SERIES_MESSAGES = {
  notFound: "Series not found",
  taken: "You already have a series with this name",
  order: "The reading order must list every book of the series once",
  /** Two names that differ only in case, accents or punctuation would share one page, /series/{slug}. */
  sameAddress: (other: string) =>
    `This name would share its web address with your series “${other}”: use that series, or a name that differs by more than punctuation or accents`,
} as const;

const name = plainText(1, SERIES_LIMITS.name, "Series name");
const description = z
  .preprocess((v) => (v === null ? "" : v), plainText(0, SERIES_LIMITS.description, "Description"))
  .transform((v) => (v === "" ? null : v));

export const seriesCreateSchema = z.strictObject({ name, description: description.optional() });
export type SeriesCreateInput = z.output<typeof seriesCreateSchema>;

export const seriesUpdateSchema = z
  .strictObject({ name: name.optional(), description: description.optional() })
  .refine((v) => v.name !== undefined || v.description !== undefined, { error: "Nothing to change" });
export type SeriesUpdateInput = z.output<typeof seriesUpdateSchema>;

export const seriesOrderSchema = z.strictObject({
  bookIds: z
    .array(z.uuid({ error: "Each book must be a book id" }), { error: "bookIds must be a list of book ids" })
    .max(SERIES_LIMITS.books, { error: `A series has at most ${SERIES_LIMITS.books} books` }),
});

export const seriesSchema = namedObject("Series", {
  id: z.uuid(),
  name: z.string(),
  /** Its address on the author's site: /series/{slug}. */
  slug: z.string(),
  description: z.string().nullable(),
  /** In reading order. */
  books: z.array(
    z.object({
      id: z.uuid(),
      title: z.string(),
      orderInSeries: z.number().int().nullable(),
      visibilityEnabled: z.boolean(),
    }),
  ),
});
export type Series = z.infer<typeof seriesSchema>;
