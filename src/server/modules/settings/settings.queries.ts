// The columns Site Settings edits, spread over the website and its customization row.
import { and, desc, eq } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.ts";
import type { ImageVariants } from "../../../db/schema/books.ts";
import {
  contactSettings,
  legalPages,
  newsletterSubscribers,
  websiteCustomization,
  websites,
} from "../../../db/schema/index.ts";
import type { ContactSettings } from "../../../shared/schemas/contact-settings.ts";
import type { HomePage } from "../../../shared/schemas/home-page.ts";
import type { SiteSettings, SiteSettingsUpdate } from "../../../shared/schemas/site-settings.ts";
import { saveAuthorRow } from "../../lib/owned-rows.ts";
import { subscriberFields } from "../../lib/select-shapes.ts";

const WEBSITE_KEYS = [
  "websiteName",
  "websiteTitle",
  "tagline",
  "booksEnabled",
  "aboutEnabled",
  "newsEnabled",
  "newsletterEnabled",
  "contactEnabled",
  "showWhenEmpty",
  "logoIcon",
  "headerSize",
  "iconColor",
  "headerBackgroundColor",
  "footerBackgroundColor",
] as const satisfies readonly (keyof SiteSettings)[];

const CUSTOMIZATION_KEYS = [
  "fontFamily",
  "accentColor",
  "buttonColor",
  "buttonTextColor",
  "buttonHoverColor",
  "buttonHoverTextColor",
] as const satisfies readonly (keyof SiteSettings)[];

function pick<K extends keyof SiteSettingsUpdate>(input: SiteSettingsUpdate, keys: readonly K[]) {
  const out: Partial<Pick<SiteSettingsUpdate, K>> = {};
  for (const k of keys) if (input[k] !== undefined) out[k] = input[k];
  return out;
}

export async function selectSettings(db: Db | Tx, userId: string) {
  const [row] = await db
    .select({ website: websites, customization: websiteCustomization })
    .from(websites)
    .leftJoin(websiteCustomization, eq(websiteCustomization.userId, websites.userId))
    .where(eq(websites.userId, userId));
  return row ?? null;
}

/** Writes the changed columns; false when the author has no website. */
export async function writeSettings(tx: Tx, userId: string, input: SiteSettingsUpdate): Promise<boolean> {
  const site = pick(input, WEBSITE_KEYS);
  const [website] = await tx
    .update(websites)
    .set({ ...site, updatedAt: new Date() })
    .where(eq(websites.userId, userId))
    .returning({ id: websites.id });
  if (!website) return false;
  const look = pick(input, CUSTOMIZATION_KEYS);
  if (Object.keys(look).length > 0) {
    await saveAuthorRow(tx, websiteCustomization, userId, look);
  }
  return true;
}

export async function selectContactSettings(db: Db | Tx, userId: string) {
  const [row] = await db.select().from(contactSettings).where(eq(contactSettings.userId, userId));
  return row ?? null;
}

export async function hasWebsite(db: Db | Tx, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: websites.id }).from(websites).where(eq(websites.userId, userId));
  return Boolean(row);
}

/** Whether the author hid the getting-started checklist; null without a website. */
export async function selectChecklistHidden(db: Db | Tx, userId: string): Promise<boolean | null> {
  const [row] = await db.select({ hidden: websites.checklistHidden }).from(websites).where(eq(websites.userId, userId));
  return row ? row.hidden : null;
}

/** False without a website. */
export async function writeChecklistHidden(db: Db | Tx, userId: string, hidden: boolean): Promise<boolean> {
  const rows = await db
    .update(websites)
    .set({ checklistHidden: hidden })
    .where(eq(websites.userId, userId))
    .returning({ id: websites.id });
  return rows.length > 0;
}

export function writeContactSettings(tx: Tx, userId: string, input: ContactSettings): Promise<void> {
  return saveAuthorRow(tx, contactSettings, userId, input);
}

export async function selectEmbedCode(db: Db | Tx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ code: websiteCustomization.newsletterEmbedCode })
    .from(websiteCustomization)
    .where(eq(websiteCustomization.userId, userId));
  return row?.code ?? null;
}

export function writeEmbedCode(tx: Tx, userId: string, code: string | null): Promise<void> {
  return saveAuthorRow(tx, websiteCustomization, userId, { newsletterEmbedCode: code });
}

export async function selectBlogPage(db: Db | Tx, userId: string) {
  const [row] = await db
    .select({ title: websiteCustomization.blogPageTitle, description: websiteCustomization.blogPageDescription })
    .from(websiteCustomization)
    .where(eq(websiteCustomization.userId, userId));
  return { title: row?.title ?? null, description: row?.description ?? null };
}

export function writeBlogPage(
  tx: Tx,
  userId: string,
  page: { title: string | null; description: string | null },
): Promise<void> {
  const values = { blogPageTitle: page.title, blogPageDescription: page.description };
  return saveAuthorRow(tx, websiteCustomization, userId, values);
}

export function selectSubscribers(db: Db, userId: string) {
  return db
    .select({ id: newsletterSubscribers.id, ...subscriberFields })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.userId, userId))
    .orderBy(desc(newsletterSubscribers.createdAt), desc(newsletterSubscribers.id));
}

const PRIVACY_LEGAL = "privacy_legal";

export async function selectLegal(db: Db | Tx, userId: string) {
  const [row] = await db
    .select({ content: legalPages.content, isEnabled: legalPages.isEnabled })
    .from(legalPages)
    .where(and(eq(legalPages.userId, userId), eq(legalPages.pageType, PRIVACY_LEGAL)));
  return row ?? null;
}

export async function writeLegal(tx: Tx, userId: string, content: string | null, isEnabled: boolean): Promise<void> {
  await tx
    .insert(legalPages)
    .values({ userId, pageType: PRIVACY_LEGAL, content, isEnabled })
    .onConflictDoUpdate({
      target: [legalPages.userId, legalPages.pageType],
      set: { content, isEnabled, updatedAt: new Date() },
    });
}

/** The home page's columns of the website; false when the author has no website. */
export async function writeHero(tx: Tx, userId: string, variants: ImageVariants | null): Promise<boolean> {
  const rows = await tx
    .update(websites)
    .set({ heroImageVariants: variants, heroImageUrl: variants?.at(-1)?.url ?? null, updatedAt: new Date() })
    .where(eq(websites.userId, userId))
    .returning({ id: websites.id });
  return rows.length > 0;
}

export async function writeHomePage(
  tx: Tx,
  userId: string,
  input: HomePage & { heroImageVariants?: ImageVariants | null },
): Promise<boolean> {
  const rows = await tx
    .update(websites)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(websites.userId, userId))
    .returning({ id: websites.id });
  return rows.length > 0;
}
