// The back office: support, metrics and outgoing mail.
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { MAIL_STATUSES, TICKET_PRIORITIES, TICKET_STATUSES } from "../../shared/enums.ts";
import { user } from "./auth.ts";
import { releaseAlerts } from "./books.ts";
import { newsletterSubscribers, newsletters } from "./content.ts";
import { count, createdAt, oneOf, parentUuid, uuidKey } from "./util.ts";

export const supportTickets = pgTable(
  "support_tickets",
  {
    id: uuidKey(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    name: text("name"),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    priority: text("priority").notNull().default("normal"),
    status: text("status").notNull().default("open"),
    adminResponse: text("admin_response"),
    respondedAt: timestamp("responded_at", { withTimezone: true }),
    respondedBy: text("responded_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("support_tickets_status_idx").on(t.status, t.createdAt),
    index("support_tickets_user_idx").on(t.userId, t.createdAt),
    check("support_tickets_priority_check", oneOf(t.priority, TICKET_PRIORITIES)),
    check("support_tickets_status_check", oneOf(t.status, TICKET_STATUSES)),
  ],
);

/**
 * The conversation under a ticket after its first message: staff answers and the author's
 * replies, oldest first. The ticket's `admin_response` is the latest staff answer.
 */
export const supportTicketMessages = pgTable(
  "support_ticket_messages",
  {
    id: uuidKey(),
    ticketId: parentUuid("ticket_id", () => supportTickets.id),
    fromStaff: boolean("from_staff").notNull(),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("support_ticket_messages_ticket_idx").on(t.ticketId, t.createdAt)],
);

/** What staff did, for the back office's settings tab. The actor's email is kept as it was. */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: uuidKey(),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    targetUserId: text("target_user_id").references(() => user.id, { onDelete: "set null" }),
    /** Who or what was acted on, in words that survive the target's deletion. */
    target: text("target"),
    detail: text("detail"),
    createdAt: createdAt(),
  },
  (t) => [index("admin_audit_log_created_idx").on(t.createdAt)],
);

export const systemMetrics = pgTable("system_metrics", {
  metricDate: date("metric_date", { mode: "string" }).primaryKey(),
  totalUsers: count("total_users"),
  newSignups: count("new_signups"),
  monthlyRevenueGbpMinor: count("monthly_revenue_gbp_minor"),
  paidUsers: count("paid_users"),
  activeUsers: count("active_users"),
  trialUsers: count("trial_users"),
  miniTierUsers: count("mini_tier_users"),
  midiTierUsers: count("midi_tier_users"),
  maxiTierUsers: count("maxi_tier_users"),
  megaTierUsers: count("mega_tier_users"),
  churnCount: count("churn_count"),
  createdAt: createdAt(),
});

/** Every mail the product sends; without SMTP this is where a local user finds them. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuidKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    /** Where "Reply" goes (a reader who wrote through a site's form); the sender stays ours. */
    replyToName: text("reply_to_name"),
    replyToAddress: text("reply_to_address"),
    /** The From display name (an author's site name on mail to their readers); null: MAIL_FROM as it is. */
    fromName: text("from_name"),
    /** Headers the mail goes with (Auto-Submitted, List-Unsubscribe…), set when it was queued (ADR 065). */
    headers: jsonb("headers").$type<Record<string, string>>(),
    status: text("status").notNull(),
    /** Tries so far, counted when a sender claims the row (a crash mid-send counts too). */
    attempts: count("attempts"),
    /** A queued row is not tried before this (the back-off after a temporary failure). */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** A `sending` row whose lease has passed was claimed by a process that died: tried again. */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    error: text("error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
    /** One recipient's copy of an author's newsletter (ADR 066); null for every other mail. */
    newsletterId: uuid("newsletter_id").references(() => newsletters.id, { onDelete: "cascade" }),
    subscriberId: uuid("subscriber_id").references(() => newsletterSubscribers.id, { onDelete: "cascade" }),
    /** One reader's release alert mail for one book's launch (ADR 073); null for every other mail. */
    releaseAlertId: uuid("release_alert_id").references(() => releaseAlerts.id, { onDelete: "cascade" }),
  },
  (t) => [
    index("mail_outbox_created_idx").on(t.createdAt),
    // The sender's claims read only the rows still to send: other mail and the paced copies
    // (newsletters', release alerts') apart, so a reset mail never waits behind a newsletter's
    // thousands of rows (ADR 066, 073).
    index("mail_outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('queued', 'sending') and ${t.newsletterId} is null and ${t.releaseAlertId} is null`),
    index("mail_outbox_bulk_due_idx")
      .on(t.nextAttemptAt)
      .where(
        sql`${t.status} in ('queued', 'sending') and (${t.newsletterId} is not null or ${t.releaseAlertId} is not null)`,
      ),
    // One copy per recipient per newsletter, however often it is queued.
    uniqueIndex("mail_outbox_newsletter_recipient_idx").on(t.newsletterId, t.subscriberId),
    // One copy per release alert (a reader of one book's launch), however often the launch runs.
    uniqueIndex("mail_outbox_release_alert_idx").on(t.releaseAlertId),
    index("mail_outbox_subscriber_idx").on(t.subscriberId),
    check("mail_outbox_status_check", oneOf(t.status, MAIL_STATUSES)),
  ],
);

/**
 * The public forms' and endpoints' allowances (contact messages, newsletter sign-ups, mails,
 * subdomain checks), counted here so every app process counts the same (ADR 031).
 */
export const requestLimits = pgTable(
  "request_limits",
  {
    /** `{limiter}|{what is limited}`, e.g. `contact|{user}|ip|{address}`. */
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("request_limits_reset_idx").on(t.resetAt)],
);
