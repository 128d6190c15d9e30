// The author's Stats: their own site's traffic over the last 7, 30 or 90 days, from the same
// cookie-less counts as everything else (a visitor is counted once a day, nothing identifies them).
import { z } from "zod";
import { namedObject } from "./fragments.ts";

export const STATS_RANGES = [7, 30, 90] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

export const statsQuerySchema = z.object({
  days: z
    .enum(["7", "30", "90"], { error: "Days must be 7, 30 or 90" })
    .default("30")
    .transform((v) => Number(v) as StatsRange),
});

const named = z.object({ label: z.string(), path: z.string(), views: z.number() });

export const statsSchema = namedObject("Stats", {
  days: z.number(),
  /** Totals over the range; visitors are summed per day (one reader on two days counts twice). */
  totals: z.object({ pageViews: z.number(), visitors: z.number() }),
  /** Every day of the range, oldest first, zeros included. */
  daily: z.array(z.object({ date: z.string(), pageViews: z.number(), visitors: z.number() })),
  /** The most viewed pages (up to 10). */
  topPages: z.array(named),
  /** The most viewed book pages (up to 5), by the book's current title. */
  topBooks: z.array(named),
  /** Arrivals per referring site, most first (up to 10); "" is direct or unknown. */
  referrers: z.array(z.object({ source: z.string(), visits: z.number() })),
  /**
   * The buy box per book (ADR 036): per store, how often it was the one shown first and how
   * often readers followed a link to it; books by title, stores by clicks.
   */
  stores: z.array(
    z.object({
      bookId: z.string(),
      title: z.string(),
      stores: z.array(z.object({ store: z.string(), label: z.string(), shown: z.number(), clicks: z.number() })),
    }),
  ),
});
export type Stats = z.infer<typeof statsSchema>;
