// A reader magnet (ADR 068): the free book an author offers readers for signing up, and how often
// it was downloaded, per reader (the limit) and per day (the author's figures).
import { check, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { MAGNET_TYPES } from "../../shared/schemas/magnet.ts";
import { user } from "./auth.ts";
import { newsletterSubscribers } from "./content.ts";
import { count, day, oneOf, parentText, parentUuid, timestamps } from "./util.ts";

/** At most one per account: the file (never served at /uploads) and the title of the offer. */
export const readerMagnets = pgTable(
  "reader_magnets",
  {
    userId: parentText("user_id", () => user.id).primaryKey(),
    title: text("title").notNull(),
    /** The name the reader's download is saved under (the author's file name, made safe). */
    fileName: text("file_name").notNull(),
    size: integer("size").notNull(),
    contentType: text("content_type").notNull(),
    /** Where the bytes are in storage (`magnets/{user}/{random}.epub`). */
    storageKey: text("storage_key").notNull(),
    ...timestamps(),
  },
  (t) => [check("reader_magnets_content_type_check", oneOf(t.contentType, MAGNET_TYPES))],
);

/** One per subscriber who confirmed while a magnet was offered: the welcome mail went, and their downloads. */
export const readerMagnetClaims = pgTable(
  "reader_magnet_claims",
  {
    userId: parentText("user_id", () => user.id),
    subscriberId: parentUuid("subscriber_id", () => newsletterSubscribers.id),
    downloads: count("downloads"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.subscriberId] })],
);

/** Downloads per account and UTC day. */
export const readerMagnetDays = pgTable(
  "reader_magnet_days",
  {
    userId: parentText("user_id", () => user.id),
    date: day(),
    downloads: count("downloads"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.date] })],
);
