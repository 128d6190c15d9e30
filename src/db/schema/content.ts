// What an author publishes and what readers send back: posts, contact messages, subscribers.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { NEWSLETTER_STATUSES, POST_CATEGORIES, SUBSCRIBER_STATUSES } from "../../shared/enums.ts";
import { user } from "./auth.ts";
import { slugHistory } from "./shapes.ts";
import { count, createdAt, oneOf, parentText, parentUuid, timestamps, uuidKey } from "./util.ts";

export const blogPosts = pgTable(
  "blog_posts",
  {
    id: uuidKey(),
    userId: parentText("user_id", () => user.id),
    title: text("title").notNull(),
    /** The post's address under /blog/, unique per author; earlier ones redirect (blog_post_slugs). */
    slug: text("slug").notNull(),
    content: text("content").notNull(),
    category: text("category").notNull().default("news"),
    ...timestamps(),
  },
  (t) => [
    index("blog_posts_user_created_idx").on(t.userId, t.createdAt),
    uniqueIndex("blog_posts_user_slug_idx").on(t.userId, t.slug),
    check("blog_posts_category_check", oneOf(t.category, POST_CATEGORIES)),
  ],
);

/** A post's earlier addresses: /blog/{old} answers 301 to the post's current slug. */
export const blogPostSlugs = slugHistory("blog_post_slugs", "postId", "post_id", () => blogPosts.id);

/**
 * Where a new post with the address `base` starts looking (ADR 074): `next` 1 is `base` itself,
 * n is `base-n`; every address of this base below `next` is known to be taken, by a post or as an
 * earlier address. A create moves it past the address it takes; a delete moves it back to the
 * addresses it frees. One row per author and base, so a create looks at one or two candidates,
 * not at every earlier post of the same title.
 */
export const postSlugCounters = pgTable(
  "post_slug_counters",
  {
    userId: parentText("user_id", () => user.id),
    base: text("base").notNull(),
    next: integer("next").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.base] })],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuidKey(),
    userId: parentText("user_id", () => user.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("contact_messages_user_created_idx").on(t.userId, t.createdAt)],
);

export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    id: uuidKey(),
    userId: parentText("user_id", () => user.id),
    email: text("email").notNull(),
    status: text("status").notNull().default("pending"),
    confirmToken: text("confirm_token").notNull().unique(),
    createdAt: createdAt(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** The site path the reader signed up on ("/newsletter"): a path only, never a query (ADR 067). */
    signupPage: text("signup_page"),
    /** Set when the author imported the address from another provider's list (ADR 067). */
    importedAt: timestamp("imported_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("newsletter_subscribers_user_email_idx").on(t.userId, sql`lower(${t.email})`),
    index("newsletter_subscribers_user_created_idx").on(t.userId, t.createdAt),
    check("newsletter_subscribers_status_check", oneOf(t.status, SUBSCRIBER_STATUSES)),
  ],
);

/**
 * What an author writes to their confirmed subscribers (ADR 066). Each recipient's copy is one
 * `mail_outbox` row (`newsletter_id`, `subscriber_id`), made when the newsletter goes out.
 */
export const newsletters = pgTable(
  "newsletters",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: parentText("user_id", () => user.id),
    subject: text("subject").notNull(),
    /** Author HTML as the post editor makes it, cleaned like a post's before it is stored. */
    content: text("content").notNull(),
    status: text("status").notNull().default("draft"),
    /** When a scheduled newsletter goes (a "send now" is scheduled for now). */
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    /** When it went out: its recipients' rows were queued. */
    startedAt: timestamp("started_at", { withTimezone: true }),
    /** When the last recipient's row was settled (sent, failed or skipped). */
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** Confirmed subscribers it went to (the rows queued). */
    recipients: integer("recipients"),
    /** Why a scheduled newsletter went back to draft (the day's sending cap), for the author. */
    error: text("error"),
    /** Also publish it on the blog when it goes out; the post made is `post_id`. */
    publishAsPost: boolean("publish_as_post").notNull().default(false),
    postId: uuid("post_id").references(() => blogPosts.id, { onDelete: "set null" }),
    /** Links in readers' copies go through a signed redirect that counts clicks (ADR 069); off unless asked. */
    countClicks: boolean("count_clicks").notNull().default(false),
    /**
     * A sent newsletter the author deleted: gone from their list, the archive and the figures, its
     * text blanked; the row stays so its copies still count towards the day's cap and staff's figures.
     */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    index("newsletters_user_created_idx").on(t.userId, t.createdAt),
    // The job reads only the newsletters due or still going out.
    index("newsletters_due_idx").on(t.scheduledAt).where(sql`${t.status} in ('scheduled', 'sending')`),
    check("newsletters_status_check", oneOf(t.status, NEWSLETTER_STATUSES)),
  ],
);

/**
 * A link of a newsletter that counts clicks (ADR 069), one row per address, made when it goes out:
 * readers' copies point at `/go/{token}` on the author's site, which counts and sends them here.
 */
export const newsletterLinks = pgTable(
  "newsletter_links",
  {
    id: uuidKey(),
    newsletterId: parentUuid("newsletter_id", () => newsletters.id),
    /** The address as the author wrote it (query string and fragment included). */
    url: text("url").notNull(),
    /** Its place among the newsletter's links (first seen first). */
    position: integer("position").notNull(),
    clicks: count("clicks"),
    /** Distinct readers who followed it (`newsletter_link_readers`). */
    readers: count("readers"),
  },
  (t) => [uniqueIndex("newsletter_links_newsletter_url_idx").on(t.newsletterId, t.url)],
);

/**
 * Who followed a link, as a 48-bit slice of an HMAC of the link and the subscriber under the
 * server's key (ADR 069): counted once, never stored as the reader's id or address.
 */
export const newsletterLinkReaders = pgTable(
  "newsletter_link_readers",
  {
    linkId: parentUuid("link_id", () => newsletterLinks.id),
    reader: bigint("reader", { mode: "number" }).notNull(),
  },
  (t) => [uniqueIndex("newsletter_link_readers_link_reader_idx").on(t.linkId, t.reader)],
);
