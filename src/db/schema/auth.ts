// Tables owned by Better Auth. Column property names match Better Auth's field names;
// the SQL names are snake_case like the rest of the schema.
import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { count, parentText, timestamps } from "./util.ts";

export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    ...timestamps(),
    role: text("role").notNull().default("user"),
    banned: boolean("banned").default(false),
    banReason: text("ban_reason"),
    banExpires: timestamp("ban_expires", { withTimezone: true }),
    twoFactorEnabled: boolean("two_factor_enabled").default(false),
    /**
     * Last sign-in or session refresh: the back office's "active users (30 days)" counts this,
     * so signing out (which deletes the session row) does not make someone inactive.
     */
    lastActiveAt: timestamp("last_active_at", { withTimezone: true }),
    /**
     * The demo author or another seeded sample: shown to staff, never counted in a business
     * figure (ADR 045). Only the seed sets it; Better Auth does not know the column, so no
     * request can.
     */
    sample: boolean("is_sample").notNull().default(false),
    /**
     * Staff paused this account's newsletters (ADR 070): null = it may send. While set, nothing
     * new is queued or started and its queued copies wait; only the back office sets it.
     */
    newsletterSendingPausedAt: timestamp("newsletter_sending_paused_at", { withTimezone: true }),
    newsletterSendingPausedReason: text("newsletter_sending_paused_reason"),
  },
  (t) => [
    check("user_role_check", sql`${t.role} in ('user', 'admin', 'super_admin')`),
    // The back office lists every account newest first (or by name), a page at a time, and
    // finds one by any part of its name or email (trigram indexes, ADR 023).
    index("user_created_idx").on(t.createdAt, t.id),
    index("user_name_idx").on(t.name, t.id),
    index("user_name_trgm_idx").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
    index("user_email_trgm_idx").using("gin", sql`lower(${t.email}) gin_trgm_ops`),
    index("user_last_active_idx").on(t.lastActiveAt),
    // The business figures leave the few samples out with an anti-join on this.
    index("user_sample_idx").on(t.id).where(sql`${t.sample}`),
  ],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ...timestamps(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: parentText("user_id", () => user.id),
    impersonatedBy: text("impersonated_by"),
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: parentText("user_id", () => user.id),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...timestamps(),
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: parentText("user_id", () => user.id),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [index("two_factor_user_id_idx").on(t.userId), index("two_factor_secret_idx").on(t.secret)],
);

// Shared by every process so a limit holds when the app is scaled out.
export const rateLimit = pgTable("rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

// Failed password sign-ins per email address, whoever sends them and whether or not an account
// has that address (ADR 015): counting across source addresses is what stops a botnet, and
// counting unknown addresses too keeps the answer from telling which ones have accounts.
export const signInFailures = pgTable("sign_in_failures", {
  email: text("email").primaryKey(),
  failures: count("failures"),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }).notNull().defaultNow(),
});

// How many account mails of one kind went to one address in the current window, so a stranger
// cannot use our forms to flood someone's inbox.
export const accountMailQuota = pgTable(
  "account_mail_quota",
  {
    kind: text("kind").notNull(),
    email: text("email").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull().defaultNow(),
    count: count("count"),
  },
  (t) => [primaryKey({ columns: [t.kind, t.email] })],
);
