// Enumerations shared by the database checks, the API schemas and the screens.
export const TIERS = ["mini", "midi", "maxi", "mega"] as const;
export type Tier = (typeof TIERS)[number];

export const CURRENCIES = ["GBP", "USD", "EUR", "CAD", "AUD"] as const;
export type Currency = (typeof CURRENCIES)[number];

export const SUBSCRIPTION_STATUSES = ["trial", "active", "past_due", "cancelled", "expired"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const DOMAIN_OPTIONS = ["free", "custom"] as const;
export type DomainOption = (typeof DOMAIN_OPTIONS)[number];

export const ROLES = ["user", "admin", "super_admin"] as const;
export type Role = (typeof ROLES)[number];

export const POST_CATEGORIES = ["news", "books", "events", "thoughts"] as const;
export type PostCategory = (typeof POST_CATEGORIES)[number];

export const FONT_FAMILIES = [
  "inter",
  "open-sans",
  "roboto",
  "lato",
  "source-sans-pro",
  "poppins",
  "merriweather",
  "playfair-display",
  "crimson-text",
] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];

export const LOGO_ICONS = [
  "BookOpen",
  "Book",
  "Library",
  "Bookmark",
  "PenTool",
  "Feather",
  "Pen",
  "FileText",
  "Mail",
  "Newspaper",
  "User",
  "Home",
] as const;

export const LAYOUT_STYLES = ["left", "center", "hero"] as const;

export const SOCIAL_PLATFORMS = [
  "facebook",
  "instagram",
  "youtube",
  "twitter",
  "tiktok",
  "bluesky",
  "website",
  "email",
] as const;

export const TICKET_STATUSES = ["open", "responded", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_PRIORITIES = ["urgent", "high", "normal", "low"] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

/** `bounced`: a newsletter to the address was refused for good (5xx); it gets no more (ADR 066). */
export const SUBSCRIBER_STATUSES = ["pending", "confirmed", "unsubscribed", "bounced"] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];
/**
 * An author's newsletter: `draft` is being written, `scheduled` waits for its time, `sending` has
 * one outbox row per recipient, `sent` has none left waiting (ADR 066).
 */
export const NEWSLETTER_STATUSES = ["draft", "scheduled", "sending", "sent"] as const;
export type NewsletterStatus = (typeof NEWSLETTER_STATUSES)[number];
export const TRANSACTION_TYPES = ["subscription_payment", "refund"] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
/**
 * `queued` waits for the background sender (ADR 048), `sending` is claimed by one process until
 * its lease ends; `logged` was only written to the log (no SMTP_URL); `skipped` is a newsletter
 * row whose reader unsubscribed or bounced before it went (ADR 066).
 */
export const MAIL_STATUSES = ["queued", "sending", "sent", "failed", "logged", "skipped"] as const;

/** `'a', 'b'` for use inside a SQL `in (...)` check. */
export function sqlList(values: readonly string[]): string {
  return values.map((v) => `'${v.replace(/'/g, "''")}'`).join(", ");
}
