// Site Settings for the signed-in author: read with the spec's defaults, save and drop the site's
// cached pages in the same transaction.
import type { Db } from "../../../db/client.ts";
import type { ImageVariants } from "../../../db/schema/books.ts";
import type { BlogPage } from "../../../shared/schemas/blog-page.ts";
import {
  CONTACT_MESSAGES,
  type ContactSettings,
  type ContactSettingsView,
} from "../../../shared/schemas/contact-settings.ts";
import type { HomePage } from "../../../shared/schemas/home-page.ts";
import type { Legal, LegalInput } from "../../../shared/schemas/legal.ts";
import type { NewsletterSettings, NewsletterSubscriber } from "../../../shared/schemas/newsletter-settings.ts";
import type { SiteSettings, SiteSettingsUpdate } from "../../../shared/schemas/site-settings.ts";
import { EMPTY_HIDDEN_SECTIONS, type SiteStatus, type SiteStatusUpdate } from "../../../shared/schemas/site-status.ts";
import { DomainError, notFoundError } from "../../lib/domain-error.ts";
import { cleanAuthorHtml } from "../../lib/html.ts";
import { safeSegment } from "../../lib/images.ts";
import { subscriberView } from "../../lib/select-shapes.ts";
import type { Storage } from "../../lib/storage.ts";
import { privacyNoticeHtml } from "../sites/privacy-notice.ts";
import { markSiteChanged } from "../sites/site-changes.service.ts";
import { getSiteStatus, loadOwnSiteContext, privacyFactsOf, siteHostOf } from "../sites/sites.service.ts";
import {
  contactEmailState,
  mailLink,
  mayMailLink,
  onContactEmailSaved,
  type PendingLink,
  readContactAddresses,
  renewLink,
  type VerificationMail,
} from "./contact-email.service.ts";
import * as q from "./settings.queries.ts";

const noWebsite = () => notFoundError("Set up your website first");

export async function getSiteSettings(db: Db, userId: string): Promise<SiteSettings> {
  const row = await q.selectSettings(db, userId);
  if (!row) throw noWebsite();
  const { website: w, customization: c } = row;
  return {
    websiteName: w.websiteName,
    websiteTitle: w.websiteTitle,
    tagline: w.tagline,
    booksEnabled: w.booksEnabled,
    aboutEnabled: w.aboutEnabled,
    newsEnabled: w.newsEnabled,
    newsletterEnabled: w.newsletterEnabled,
    contactEnabled: w.contactEnabled,
    showWhenEmpty: (Array.isArray(w.showWhenEmpty) ? w.showWhenEmpty : []).filter(
      (k): k is SiteSettings["showWhenEmpty"][number] => (EMPTY_HIDDEN_SECTIONS as readonly string[]).includes(k),
    ),
    logoIcon: w.logoIcon as SiteSettings["logoIcon"],
    headerSize: w.headerSize,
    iconColor: w.iconColor,
    headerBackgroundColor: w.headerBackgroundColor,
    footerBackgroundColor: w.footerBackgroundColor,
    fontFamily: (c?.fontFamily ?? "merriweather") as SiteSettings["fontFamily"],
    accentColor: c?.accentColor ?? "#6366f1",
    buttonColor: c?.buttonColor ?? "#2563eb",
    buttonTextColor: c?.buttonTextColor ?? "#ffffff",
    buttonHoverColor: c?.buttonHoverColor ?? "#1d4ed8",
    buttonHoverTextColor: c?.buttonHoverTextColor ?? "#ffffff",
  };
}

export async function updateSiteSettings(db: Db, userId: string, input: SiteSettingsUpdate): Promise<SiteSettings> {
  await db.transaction(async (tx) => {
    if (!(await q.writeSettings(tx, userId, input))) throw noWebsite();
    await markSiteChanged(tx, userId);
  });
  return getSiteSettings(db, userId);
}

/** The contact settings, with the defaults of a site that never saved them, and where messages go. */
export async function getContactSettings(db: Db, userId: string): Promise<ContactSettingsView> {
  if (!(await q.hasWebsite(db, userId))) throw noWebsite();
  const [row, addresses] = await Promise.all([q.selectContactSettings(db, userId), readContactAddresses(db, userId)]);
  return {
    contactEmail: row?.contactEmail ?? null,
    enableContactForm: row?.enableContactForm ?? true,
    antispamEnabled: row?.antispamEnabled ?? true,
    socialLinks: (row?.socialLinks ?? []) as ContactSettings["socialLinks"],
    contactEmailState: addresses ? contactEmailState(addresses) : "account",
    accountEmail: addresses?.accountEmail ?? "",
  };
}

/** Saves the settings; a new contact address gets a verification link (ADR 014). */
export async function saveContactSettings(
  db: Db,
  userId: string,
  input: ContactSettings,
  mail: VerificationMail,
): Promise<ContactSettingsView> {
  const link = await db.transaction(async (tx) => {
    if (!(await q.hasWebsite(tx, userId))) throw noWebsite();
    const before = await readContactAddresses(tx, userId);
    await q.writeContactSettings(tx, userId, input);
    const after = await readContactAddresses(tx, userId);
    await markSiteChanged(tx, userId);
    return after ? onContactEmailSaved(tx, userId, before, after) : null;
  });
  // The settings are saved either way; a link that could not go out can be sent again from the screen.
  if (link && (await mayMailLink(link.email, mail))) await mailLink(link, mail).catch(() => undefined);
  return getContactSettings(db, userId);
}

/** Mails a new link to the pending contact address (the previous link stops working). */
export async function resendContactVerification(
  db: Db,
  userId: string,
  mail: VerificationMail,
): Promise<ContactSettingsView> {
  if (!(await q.hasWebsite(db, userId))) throw noWebsite();
  const pending = await readContactAddresses(db, userId);
  if (!pending?.contactEmail || contactEmailState(pending) !== "pending") {
    throw new DomainError("validation_failed", CONTACT_MESSAGES.nothingPending, { field: "contactEmail" });
  }
  // Checked before a new link replaces the old one: a refused resend leaves the mailed link working.
  if (!(await mayMailLink(pending.contactEmail, mail)))
    throw new DomainError("rate_limited", CONTACT_MESSAGES.tooManyLinks, { field: "contactEmail" });
  const link: PendingLink | null = await db.transaction(async (tx) => {
    const a = await readContactAddresses(tx, userId);
    return a ? renewLink(tx, userId, a) : null;
  });
  if (!link) throw new DomainError("validation_failed", CONTACT_MESSAGES.nothingPending, { field: "contactEmail" });
  await mailLink(link, mail);
  return getContactSettings(db, userId);
}

export async function getNewsletterSettings(db: Db, userId: string): Promise<NewsletterSettings> {
  if (!(await q.hasWebsite(db, userId))) throw noWebsite();
  return { embedCode: await q.selectEmbedCode(db, userId) };
}

export async function saveNewsletterSettings(
  db: Db,
  userId: string,
  input: NewsletterSettings,
): Promise<NewsletterSettings> {
  await db.transaction(async (tx) => {
    if (!(await q.hasWebsite(tx, userId))) throw noWebsite();
    await q.writeEmbedCode(tx, userId, input.embedCode);
    await markSiteChanged(tx, userId);
  });
  return getNewsletterSettings(db, userId);
}

/** The Blog page's own title and description; null shows the default. */
export async function getBlogPage(db: Db, userId: string): Promise<BlogPage> {
  if (!(await q.hasWebsite(db, userId))) throw noWebsite();
  return q.selectBlogPage(db, userId);
}

export async function saveBlogPage(db: Db, userId: string, input: BlogPage): Promise<BlogPage> {
  await db.transaction(async (tx) => {
    if (!(await q.hasWebsite(tx, userId))) throw noWebsite();
    await q.writeBlogPage(tx, userId, input);
    await markSiteChanged(tx, userId);
  });
  return getBlogPage(db, userId);
}

/** The home page's layout, hero and extra content, with the spec's defaults. */
export async function getHomePage(db: Db, userId: string): Promise<HomePage> {
  const row = await q.selectSettings(db, userId);
  if (!row) throw noWebsite();
  const w = row.website;
  return {
    layoutStyle: w.layoutStyle as HomePage["layoutStyle"],
    heroImageUrl: w.heroImageUrl,
    heroTextColor: w.heroTextColor ?? "#ffffff",
    heroButtonColor: w.heroButtonColor ?? "#2563eb",
    heroButtonTextColor: w.heroButtonTextColor ?? "#ffffff",
    heroButtonSecondaryColor: w.heroButtonSecondaryColor ?? "#ffffff",
    heroButtonSecondaryTextColor: w.heroButtonSecondaryTextColor ?? "#000000",
    homePageContent: w.homePageContent,
  };
}

export async function saveHomePage(db: Db, userId: string, input: HomePage): Promise<HomePage> {
  // Only harmless HTML is kept; nothing readable left means no content.
  const values = { ...input, homePageContent: cleanAuthorHtml(input.homePageContent) };
  await db.transaction(async (tx) => {
    const before = await q.selectSettings(tx, userId);
    if (!before) throw noWebsite();
    // A different address replaces an uploaded hero; the same one (the form sends it back) keeps it.
    const heroImageVariants = before.website.heroImageUrl === input.heroImageUrl ? undefined : null;
    if (!(await q.writeHomePage(tx, userId, { ...values, heroImageVariants }))) throw noWebsite();
    await markSiteChanged(tx, userId);
  });
  return getHomePage(db, userId);
}

/** Every stored version of the site's hero image lives in this folder. */
export const heroDir = (userId: string) => `heroes/${safeSegment(userId)}`;

/** Sets (or with null removes) the uploaded hero image; its widest variant is the hero's address. */
export async function setHero(db: Db, userId: string, variants: ImageVariants | null): Promise<HomePage> {
  await db.transaction(async (tx) => {
    if (!(await q.writeHero(tx, userId, variants))) throw noWebsite();
    await markSiteChanged(tx, userId);
  });
  return getHomePage(db, userId);
}

/** Removes hero files no longer in use (after a grace, so an upload on its way is never taken). */
export async function pruneHeroFiles(db: Db, storage: Storage, userId: string, graceMs = 60_000): Promise<number> {
  const row = await q.selectSettings(db, userId);
  return storage.prune(
    heroDir(userId),
    (row?.website.heroImageVariants ?? []).map((v) => v.url),
    graceMs,
  );
}

/**
 * The Privacy & Legal page, and the notice generated from what the site collects today (readers
 * see it while content is null; the screen starts from it, and saving makes the text the author's).
 */
export async function getLegal(db: Db, userId: string, sitesDomain: string): Promise<Legal> {
  const ctx = await loadOwnSiteContext(db, userId);
  if (!ctx) throw noWebsite();
  const row = await q.selectLegal(db, userId);
  return {
    content: row?.content ?? null,
    isEnabled: row?.isEnabled ?? true,
    generated: privacyNoticeHtml(privacyFactsOf(ctx, siteHostOf(ctx, sitesDomain))),
  };
}

/** Whether readers can see the site and which sections are in its menu: the renderer's own rule. */
export async function getStatus(db: Db, userId: string): Promise<SiteStatus> {
  const [status, checklistHidden] = await Promise.all([getSiteStatus(db, userId), q.selectChecklistHidden(db, userId)]);
  if (!status || checklistHidden === null) throw noWebsite();
  return { ...status, checklistHidden };
}

/**
 * The dashboard's own preference, kept with the site so every device agrees. Readers see nothing
 * of it: the site's cached pages stay.
 */
export async function updateStatus(db: Db, userId: string, input: SiteStatusUpdate): Promise<SiteStatus> {
  if (!(await q.writeChecklistHidden(db, userId, input.checklistHidden))) throw noWebsite();
  return getStatus(db, userId);
}

export async function saveLegal(db: Db, userId: string, input: LegalInput, sitesDomain: string): Promise<Legal> {
  // Only harmless HTML is kept; nothing readable left means no content.
  const content = cleanAuthorHtml(input.content);
  await db.transaction(async (tx) => {
    if (!(await q.hasWebsite(tx, userId))) throw noWebsite();
    await q.writeLegal(tx, userId, content, input.isEnabled);
    await markSiteChanged(tx, userId);
  });
  return getLegal(db, userId, sitesDomain);
}

/** The author's whole list, newest first, for the CSV download (the screen reads a page at a time). */
export async function listSubscribers(db: Db, userId: string): Promise<NewsletterSubscriber[]> {
  return (await q.selectSubscribers(db, userId)).map(subscriberView);
}

/** Confirmed subscribers as CSV for a mailing tool; a leading =, +, - or @ is quoted away. */
export function subscribersCsv(list: NewsletterSubscriber[]): string {
  const cell = (v: string) => {
    const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
    return /[",\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const lines = list
    .filter((s) => s.status === "confirmed")
    .map((s) => [s.email, s.confirmedAt ?? ""].map(cell).join(","));
  return `email,confirmed_at\n${lines.join("\n")}${lines.length ? "\n" : ""}`;
}
