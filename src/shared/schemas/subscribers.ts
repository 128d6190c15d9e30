// The author's mailing list as the Subscribers screen reads it: a page at a time (searched by
// address, filtered by status), the counts per status, and the import of another provider's CSV
// (ADR 067). The statuses are the shared list, so a status added there shows here by itself.
import { z } from "zod";
import { SUBSCRIBER_STATUSES } from "../enums.ts";
import { namedObject } from "./fragments.ts";
import { newsletterSubscriberSchema } from "./newsletter-settings.ts";
import { pageNumber } from "./paging.ts";

export const SUBSCRIBERS_PAGE_SIZE = 50;

export const subscribersQuerySchema = z.object({
  q: z.string().trim().max(320, { error: "Search is too long" }).optional(),
  status: z.enum(SUBSCRIBER_STATUSES, { error: "Unknown status" }).optional(),
  page: pageNumber,
});
export type SubscribersQuery = z.infer<typeof subscribersQuerySchema>;

export const subscribersPageSchema = namedObject("SubscribersPage", {
  subscribers: z.array(newsletterSubscriberSchema),
  /** How many match the search and filter (all pages). */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** The whole list per status, whatever the search: every status in the shared list, 0 included. */
  counts: z.record(z.enum(SUBSCRIBER_STATUSES), z.number().int()),
});
export type SubscribersPage = z.infer<typeof subscribersPageSchema>;

/** What an import did; `invalid` lists the first lines whose address is not valid. */
export const subscriberImportSchema = namedObject("SubscriberImport", {
  imported: z.number().int(),
  /** Already on the list in any status (an unsubscribed reader stays unsubscribed), or twice in the file. */
  alreadyOnList: z.number().int(),
  invalidCount: z.number().int(),
  invalid: z.array(z.object({ line: z.number().int(), value: z.string() })),
});
export type SubscriberImport = z.infer<typeof subscriberImportSchema>;

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;
/** How many invalid lines the answer names (the count covers them all). */
export const IMPORT_INVALID_SHOWN = 100;

export const IMPORT_MESSAGES = {
  consent: "Please confirm that everyone on this list asked to receive your newsletter. Nothing was imported.",
  tooLarge: `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files. Nothing was imported.`,
  tooManyRows: `The file has more than ${IMPORT_MAX_ROWS.toLocaleString("en-GB")} rows. Split it into smaller files. Nothing was imported.`,
  noFile: "Choose a CSV file to import.",
  notText: "This file is not a CSV text file. Export your list as CSV and try again. Nothing was imported.",
  noEmailColumn:
    'No email column found. The first line of the file must name it (for example "Email Address" or "email"). Nothing was imported.',
  empty: "The file has no addresses in it. Nothing was imported.",
} as const;

export const SIGNUP_PAGE_MAX = 200;

/**
 * The page a reader signed up on, as stored: a site path only ("/newsletter", "/books/my-book"),
 * without query or fragment, at most SIGNUP_PAGE_MAX characters of plain path characters; null
 * for anything else (a full URL, "//host", control characters), so nothing a visitor typed beyond
 * a path is kept.
 */
export function signupPagePath(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const path = raw.split(/[?#]/, 1)[0] ?? "";
  if (!path.startsWith("/") || path.startsWith("//") || path.length > SIGNUP_PAGE_MAX) return null;
  return /^[A-Za-z0-9/._~%!$&'()*+,;=:@-]+$/.test(path) ? path : null;
}
