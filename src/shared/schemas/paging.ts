import { z } from "zod";

/** `?page=` of a list read a page at a time: a whole number from 1 (the default). */
export const pageNumber = z.coerce
  .number({ error: "Page must be a number" })
  .int({ error: "Page must be a whole number" })
  .min(1, { error: "Page starts at 1" })
  .max(100_000, { error: "Page is out of range" })
  .default(1);
