// An author's profile, website and everything that shapes how the public site looks.
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { DOMAIN_OPTIONS, FONT_FAMILIES, LAYOUT_STYLES, LOGO_ICONS } from "../../shared/enums.ts";
import { user } from "./auth.ts";
import type { ImageVariants } from "./books.ts";
import { perDayTables } from "./shapes.ts";
import { count, day, oneOf, parentText, parentUuid, timestamps, uuidKey } from "./util.ts";

export type WritingJourneyEntry = { year: string; title: string; description: string };

export const profiles = pgTable("profiles", {
  id: text("id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  email: text("email").notNull(),
  /** Empty until the author writes one: nothing made-up reaches readers (the About page waits). */
  bio: text("bio").notNull().default(""),
  tagline: text("tagline"),
  /** The author's own words, or empty (readers then see no genre). */
  genre: text("genre").notNull().default(""),
  authorPhotoUrl: text("author_photo_url"),
  /** Uploaded photo's WebP variants (square, widest last); null when the photo is an address. */
  authorPhotoVariants: jsonb("author_photo_variants").$type<ImageVariants>(),
  writingJourney: jsonb("writing_journey").$type<WritingJourneyEntry[]>(),
  onboardingCompleted: boolean("onboarding_completed").notNull().default(false),
  onboardingCompletedAt: timestamp("onboarding_completed_at", { withTimezone: true }),
  ...timestamps(),
});

export const websites = pgTable(
  "websites",
  {
    id: uuidKey(),
    userId: text("user_id")
      .notNull()
      .unique()
      .references(() => user.id, { onDelete: "cascade" }),
    subdomain: text("subdomain"),
    websiteName: text("website_name").notNull(),
    websiteTitle: text("website_title"),
    tagline: text("tagline"),
    domainOption: text("domain_option").notNull().default("free"),
    customDomain: text("custom_domain"),
    heroImageUrl: text("hero_image_url"),
    /** Uploaded hero's WebP variants (widest last); null when the hero is an address. */
    heroImageVariants: jsonb("hero_image_variants").$type<ImageVariants>(),
    heroTextColor: text("hero_text_color").notNull().default("#ffffff"),
    heroButtonColor: text("hero_button_color").notNull().default("#2563eb"),
    heroButtonTextColor: text("hero_button_text_color").notNull().default("#ffffff"),
    heroButtonSecondaryColor: text("hero_button_secondary_color").notNull().default("#ffffff"),
    heroButtonSecondaryTextColor: text("hero_button_secondary_text_color").notNull().default("#000000"),
    homePageContent: text("home_page_content"),
    layoutStyle: text("layout_style").notNull().default("left"),
    logoIcon: text("logo_icon").notNull().default("BookOpen"),
    iconColor: text("icon_color").notNull().default("#6366f1"),
    headerSize: real("header_size").notNull().default(1.5),
    headerBackgroundColor: text("header_background_color").notNull().default("#ffffff"),
    footerBackgroundColor: text("footer_background_color").notNull().default("#1f2937"),
    booksEnabled: boolean("books_enabled").notNull().default(true),
    aboutEnabled: boolean("about_enabled").notNull().default(true),
    newsEnabled: boolean("news_enabled").notNull().default(true),
    newsletterEnabled: boolean("newsletter_enabled").notNull().default(true),
    contactEnabled: boolean("contact_enabled").notNull().default(true),
    /**
     * Sections the author chose to show before they have content (ADR 052): otherwise About,
     * Blog, Newsletter and Books stay out of the menu until there is something in them.
     */
    showWhenEmpty: jsonb("show_when_empty").$type<string[]>().notNull().default([]),
    /** The author hid the dashboard's getting-started checklist (kept here so every device agrees). */
    checklistHidden: boolean("checklist_hidden").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("websites_subdomain_lower_idx").on(sql`lower(${t.subdomain})`),
    // The back office's search by any part of the subdomain (ADR 023).
    index("websites_subdomain_trgm_idx").using("gin", sql`lower(${t.subdomain}) gin_trgm_ops`),
    uniqueIndex("websites_custom_domain_lower_idx").on(sql`lower(${t.customDomain})`),
    check("websites_subdomain_format", sql`${t.subdomain} ~ '^[a-z0-9]{3,63}$'`),
    check("websites_has_address", sql`${t.subdomain} is not null or ${t.customDomain} is not null`),
    check("websites_domain_option_check", oneOf(t.domainOption, DOMAIN_OPTIONS)),
    check("websites_layout_style_check", oneOf(t.layoutStyle, LAYOUT_STYLES)),
    check("websites_logo_icon_check", oneOf(t.logoIcon, LOGO_ICONS)),
    check("websites_header_size_check", sql`${t.headerSize} between 1 and 3`),
  ],
);

export const websiteCustomization = pgTable(
  "website_customization",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    accentColor: text("accent_color").notNull().default("#6366f1"),
    buttonColor: text("button_color").notNull().default("#2563eb"),
    buttonTextColor: text("button_text_color").notNull().default("#ffffff"),
    buttonHoverColor: text("button_hover_color").notNull().default("#1d4ed8"),
    buttonHoverTextColor: text("button_hover_text_color").notNull().default("#ffffff"),
    fontFamily: text("font_family").notNull().default("merriweather"),
    newsletterEmbedCode: text("newsletter_embed_code"),
    /** The site shows the newsletters sent at /newsletter/archive (ADR 071); off until the author says. */
    newsletterArchiveEnabled: boolean("newsletter_archive_enabled").notNull().default(false),
    /** The author's postal address, under every newsletter and release alert when given (ADR 071). */
    postalAddress: text("postal_address"),
    blogPageTitle: text("blog_page_title"),
    blogPageDescription: text("blog_page_description"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("website_customization_font_check", oneOf(t.fontFamily, FONT_FAMILIES))],
);

export const legalPages = pgTable(
  "legal_pages",
  {
    id: uuidKey(),
    userId: parentText("user_id", () => user.id),
    pageType: text("page_type").notNull().default("privacy_legal"),
    content: text("content"),
    isEnabled: boolean("is_enabled").notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("legal_pages_user_type_idx").on(t.userId, t.pageType),
    check("legal_pages_type_check", oneOf(t.pageType, ["privacy_legal"])),
  ],
);

export type SocialLink = { platform: string; url: string; enabled: boolean };

export const contactSettings = pgTable("contact_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  contactEmail: text("contact_email"),
  enableContactForm: boolean("enable_contact_form").notNull().default(true),
  socialLinks: jsonb("social_links").$type<SocialLink[]>().notNull().default([]),
  antispamEnabled: boolean("antispam_enabled").notNull().default(true),
  /**
   * The contact address whose owner followed our link (ADR 014). Messages go to contact_email
   * only while it equals this (case aside); a changed address is unverified again by itself.
   */
  verifiedContactEmail: text("verified_contact_email"),
  /** SHA-256 of the one pending verification link's token: the token itself is only in the mail. */
  verifyTokenHash: text("verify_token_hash").unique(),
  /** The address the pending link was mailed to (a link proves only that address). */
  verifyTokenEmail: text("verify_token_email"),
  verifyTokenExpiresAt: timestamp("verify_token_expires_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const domainVerifications = pgTable(
  "domain_verifications",
  {
    id: uuidKey(),
    userId: parentText("user_id", () => user.id),
    domain: text("domain").notNull(),
    verificationToken: text("verification_token").notNull(),
    verified: boolean("verified").notNull().default(false),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    /** The last DNS check (by the author's Verify or the background job) and what it found. */
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    /** A DomainProblem, or null when the last check found everything right. */
    lastProblem: text("last_problem"),
    lastMessage: text("last_message"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("domain_verifications_user_domain_idx").on(t.userId, sql`lower(${t.domain})`),
    // Pending claims may overlap (whoever proves the token first wins); a verified domain is one author's.
    uniqueIndex("domain_verifications_verified_domain_idx").on(sql`lower(${t.domain})`).where(sql`${t.verified}`),
  ],
);

export const websiteAnalytics = pgTable(
  "website_analytics",
  {
    id: uuidKey(),
    websiteId: parentUuid("website_id", () => websites.id),
    date: day(),
    pageViews: count("page_views"),
    uniqueVisitors: count("unique_visitors"),
  },
  (t) => [
    uniqueIndex("website_analytics_site_date_idx").on(t.websiteId, t.date),
    index("website_analytics_date_idx").on(t.date),
  ],
);

const perSiteAndDay = perDayTables("site", () => ({ websiteId: parentUuid("website_id", () => websites.id) }));

/** Views per public page path and day, for the author's Stats (same cookie-less counting). */
export const websitePageStats = perSiteAndDay(
  "website_page_stats",
  { path: text("path").notNull() },
  { views: count("views") },
);

/** Visits per referring site (the Referer's host, or '' for none) and day. */
export const websiteReferrerStats = perSiteAndDay(
  "website_referrer_stats",
  { source: text("source").notNull() },
  { visits: count("visits") },
);

/**
 * Who was already counted today, shared by every app process (ADR 032): per site and UTC day, a
 * 32-bit slice of a salted hash of the reader's address and browser. So many addresses share each
 * value that none can be traced back; rows older than yesterday are deleted.
 */
export const websiteVisitors = perSiteAndDay("website_visitors", { visitor: integer("visitor").notNull() }, {});

/** The day's random salt for visitor hashes, the same for every process; old days are deleted. */
export const visitSalts = pgTable("visit_salts", {
  date: date("date", { mode: "string" }).primaryKey(),
  salt: text("salt").notNull(),
});
