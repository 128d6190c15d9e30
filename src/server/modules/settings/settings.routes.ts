// GET   /api/site/status     → 200 SiteStatus: live or not (the public renderer's rule), the menu's sections,
//                            and whether the author hid the getting-started checklist
// PATCH /api/site/status     { checklistHidden } → 200 SiteStatus; 400 names the field
// GET   /api/site/settings   → 200 SiteSettings (404 'Set up your website first')
// PATCH /api/site/settings   partial SiteSettings → 200 SiteSettings; 400 names the field
// GET   /api/site/contact    → 200 ContactSettingsView (the settings and where messages go)
// PUT   /api/site/contact    ContactSettings (whole) → 200 ContactSettingsView; 400 names the field;
//                            a new contact address is mailed a verification link (ADR 014)
// POST  /api/site/contact/verification → 200 ContactSettingsView, a new link mailed; 400 nothing
//                            pending; 429 the address had enough links this hour
// GET   /api/site/newsletter → 200 { embedCode }
// PUT   /api/site/newsletter { embedCode } → 200; 400 with the spec's embed warning
// GET   /api/site/blog       → 200 BlogPage { title, description } (null: the default shows)
// PUT   /api/site/blog       BlogPage (whole) → 200; 400 names the field
// GET   /api/site/home       → 200 HomePage (layout, hero image and colours, extra content)
// PUT   /api/site/home       HomePage (whole) → 200, content cleaned; 400 names the field
// POST  /api/site/hero       multipart 'file' → 200 HomePage with the uploaded hero (WebP in three
//                            widths); 400 not an image, 413 too big
// DELETE /api/site/hero      → 200 HomePage without a hero image
// GET   /api/site/legal      → 200 { content, isEnabled, generated } (the Privacy & Legal page; generated:
//                            the notice readers see while content is null)
// PUT   /api/site/legal      { content, isEnabled } → 200, content cleaned; 400 names the field
// GET   /api/newsletter/subscribers.csv  → confirmed subscribers as CSV
// The owner is always the session's user: no path or body names whose settings these are.
import type { Context } from "hono";
import { z } from "zod";
import { blogPageSchema } from "../../../shared/schemas/blog-page.ts";
import { contactSettingsSchema, contactSettingsViewSchema } from "../../../shared/schemas/contact-settings.ts";
import { homePageSchema } from "../../../shared/schemas/home-page.ts";
import { legalSchema, legalViewSchema } from "../../../shared/schemas/legal.ts";
import { newsletterSettingsSchema } from "../../../shared/schemas/newsletter-settings.ts";
import { siteSettingsSchema, siteSettingsUpdateSchema } from "../../../shared/schemas/site-settings.ts";
import { siteStatusSchema, siteStatusUpdateSchema } from "../../../shared/schemas/site-status.ts";
import { HERO_MAX_BYTES, HERO_WIDTHS, NOT_AN_IMAGE } from "../../../shared/schemas/uploads.ts";
import type { AppVars } from "../../http/context.ts";
import { apiRoute, apiRouter, errors, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { readUploadedFile, tidyUploads, uploadBody, uploadLimit } from "../../http/uploads.ts";
import { imageTooLarge, processImage, storeImage } from "../../lib/images.ts";
import type { VerificationMail } from "./contact-email.service.ts";
import {
  getBlogPage,
  getContactSettings,
  getHomePage,
  getLegal,
  getNewsletterSettings,
  getSiteSettings,
  getStatus,
  heroDir,
  listSubscribers,
  pruneHeroFiles,
  resendContactVerification,
  saveBlogPage,
  saveContactSettings,
  saveHomePage,
  saveLegal,
  saveNewsletterSettings,
  setHero,
  subscribersCsv,
  updateSiteSettings,
  updateStatus,
} from "./settings.service.ts";

const tags = ["Site settings"];
const site = json(siteSettingsSchema, "The site's settings");
const contact = json(contactSettingsViewSchema, "The contact settings and where messages go");
const newsletter = json(newsletterSettingsSchema, "The newsletter settings");
const home = json(homePageSchema, "The home page's settings");
const legal = json(legalViewSchema, "The Privacy & Legal page and the notice generated for the site");
const HERO_RULES = { widths: HERO_WIDTHS, maxBytes: HERO_MAX_BYTES, label: "Hero image" };
const heroTooLarge = () => imageTooLarge(HERO_RULES);

function tidyHeroes(c: { get(k: "deps"): AppVars["Variables"]["deps"] }, userId: string, graceMs?: number) {
  const { database, storage, logger } = c.get("deps");
  return tidyUploads(logger, "hero", () => pruneHeroFiles(database.db, storage, userId, graceMs));
}

const blog = json(blogPageSchema, "The Blog page's title and description");

const r = {
  status: apiRoute({
    method: "get",
    path: "/site/status",
    tags,
    summary: "Whether readers can see the site (the renderer's rule) and which sections are in its menu",
    responses: { 200: json(siteStatusSchema, "What readers see"), ...errors(404) },
  }),
  statusPatch: apiRoute({
    method: "patch",
    path: "/site/status",
    tags,
    summary: "Hide the dashboard's getting-started checklist, or show it again (on every device)",
    request: { body: jsonBody(siteStatusUpdateSchema) },
    responses: { 200: json(siteStatusSchema, "What readers see"), ...errors(400, 404, 415) },
  }),
  siteGet: apiRoute({
    method: "get",
    path: "/site/settings",
    tags,
    summary: "The site's settings",
    responses: { 200: site, ...errors(404) },
  }),
  sitePatch: apiRoute({
    method: "patch",
    path: "/site/settings",
    tags,
    summary: "Change the site's settings (only the fields sent)",
    request: { body: jsonBody(siteSettingsUpdateSchema) },
    responses: { 200: site, ...errors(400, 404, 415) },
  }),
  contactGet: apiRoute({
    method: "get",
    path: "/site/contact",
    tags,
    summary: "The contact settings",
    responses: { 200: contact, ...errors(404) },
  }),
  contactPut: apiRoute({
    method: "put",
    path: "/site/contact",
    tags,
    summary: "Save the contact settings (a new contact address is mailed a verification link)",
    request: { body: jsonBody(contactSettingsSchema) },
    responses: { 200: contact, ...errors(400, 404, 415) },
  }),
  contactResend: apiRoute({
    method: "post",
    path: "/site/contact/verification",
    tags,
    summary: "Mail the pending contact address a new link",
    responses: { 200: contact, ...errors(400, 404, 429) },
  }),
  blogGet: apiRoute({
    method: "get",
    path: "/site/blog",
    tags,
    summary: "The Blog page's title and description",
    responses: { 200: blog, ...errors(404) },
  }),
  blogPut: apiRoute({
    method: "put",
    path: "/site/blog",
    tags,
    summary: "Save the Blog page's title and description (empty: the default)",
    request: { body: jsonBody(blogPageSchema) },
    responses: { 200: blog, ...errors(400, 404, 415) },
  }),
  heroUpload: apiRoute({
    method: "post",
    path: "/site/hero",
    tags,
    summary: "Upload the home page's hero image",
    description: `Stored as WebP in ${HERO_WIDTHS.length} widths (1920 × 800 or larger looks best). At most ${HERO_MAX_BYTES / 1024 / 1024} MB.`,
    request: { body: uploadBody },
    middleware: [uploadLimit(HERO_MAX_BYTES, heroTooLarge)],
    responses: { 200: home, ...errors(400, 404, 413) },
  }),
  heroRemove: apiRoute({
    method: "delete",
    path: "/site/hero",
    tags,
    summary: "Remove the hero image",
    responses: { 200: home, ...errors(404) },
  }),
  newsletterGet: apiRoute({
    method: "get",
    path: "/site/newsletter",
    tags,
    summary: "The newsletter settings",
    responses: { 200: newsletter, ...errors(404) },
  }),
  newsletterPut: apiRoute({
    method: "put",
    path: "/site/newsletter",
    tags,
    summary: "Save the newsletter settings",
    request: { body: jsonBody(newsletterSettingsSchema) },
    responses: { 200: newsletter, ...errors(400, 404, 415) },
  }),
  homeGet: apiRoute({
    method: "get",
    path: "/site/home",
    tags,
    summary: "The home page's sections",
    responses: { 200: home, ...errors(404) },
  }),
  homePut: apiRoute({
    method: "put",
    path: "/site/home",
    tags,
    summary: "Save the home page's sections",
    request: { body: jsonBody(homePageSchema) },
    responses: { 200: home, ...errors(400, 404, 415) },
  }),
  legalGet: apiRoute({
    method: "get",
    path: "/site/legal",
    tags,
    summary: "The Privacy & Legal page",
    responses: { 200: legal, ...errors(404) },
  }),
  legalPut: apiRoute({
    method: "put",
    path: "/site/legal",
    tags,
    summary: "Save the legal page",
    request: { body: jsonBody(legalSchema) },
    responses: { 200: legal, ...errors(400, 404, 415) },
  }),
  subscribersCsv: apiRoute({
    method: "get",
    path: "/newsletter/subscribers.csv",
    tags: ["Newsletter"],
    summary: "Confirmed subscribers as a CSV download",
    responses: { 200: { description: "CSV", content: { "text/csv": { schema: z.string() } } } },
  }),
};

export function settingsRoutes() {
  return apiRouter()
    .openapi(r.status, async (c) => {
      const me = await requireUser(c);
      return c.json(await getStatus(c.get("deps").database.db, me.id), 200);
    })
    .openapi(r.statusPatch, async (c) => {
      const me = await requireUser(c);
      return c.json(await updateStatus(c.get("deps").database.db, me.id, c.req.valid("json")), 200);
    })
    .openapi(r.siteGet, async (c) => {
      const me = await requireUser(c);
      return c.json(await getSiteSettings(c.get("deps").database.db, me.id), 200);
    })
    .openapi(r.sitePatch, async (c) => {
      const me = await requireUser(c);
      return c.json(await updateSiteSettings(c.get("deps").database.db, me.id, c.req.valid("json")), 200);
    })
    .openapi(r.contactGet, async (c) => {
      const me = await requireUser(c);
      return c.json(await getContactSettings(c.get("deps").database.db, me.id), 200);
    })
    .openapi(r.contactPut, async (c) => {
      const me = await requireUser(c);
      const input = c.req.valid("json");
      return c.json(await saveContactSettings(c.get("deps").database.db, me.id, input, verificationMail(c)), 200);
    })
    .openapi(r.contactResend, async (c) => {
      const me = await requireUser(c);
      return c.json(await resendContactVerification(c.get("deps").database.db, me.id, verificationMail(c)), 200);
    })
    .openapi(r.blogGet, async (c) => {
      const me = await requireUser(c);
      return c.json(await getBlogPage(c.get("deps").database.db, me.id), 200);
    })
    .openapi(r.blogPut, async (c) => {
      const me = await requireUser(c);
      return c.json(await saveBlogPage(c.get("deps").database.db, me.id, c.req.valid("json")), 200);
    })
    .openapi(r.heroUpload, async (c) => {
      const me = await requireUser(c);
      const { database, storage } = c.get("deps");
      await getHomePage(database.db, me.id); // no website: 404 before the upload is read
      const bytes = await readUploadedFile(c, {
        maxBytes: HERO_MAX_BYTES,
        tooLarge: heroTooLarge,
        notAFile: NOT_AN_IMAGE,
        what: "hero image",
      });
      const variants = await storeImage(storage, heroDir(me.id), await processImage(bytes, HERO_RULES));
      const page = await setHero(database.db, me.id, variants);
      await tidyHeroes(c, me.id);
      return c.json(page, 200);
    })
    .openapi(r.heroRemove, async (c) => {
      const me = await requireUser(c);
      const page = await setHero(c.get("deps").database.db, me.id, null);
      await tidyHeroes(c, me.id, 0);
      return c.json(page, 200);
    })
    .openapi(r.newsletterGet, async (c) => {
      const me = await requireUser(c);
      return c.json(await getNewsletterSettings(c.get("deps").database.db, me.id), 200);
    })
    .openapi(r.newsletterPut, async (c) => {
      const me = await requireUser(c);
      return c.json(await saveNewsletterSettings(c.get("deps").database.db, me.id, c.req.valid("json")), 200);
    })
    .openapi(r.homeGet, async (c) => {
      const me = await requireUser(c);
      return c.json(await getHomePage(c.get("deps").database.db, me.id), 200);
    })
    .openapi(r.homePut, async (c) => {
      const me = await requireUser(c);
      const page = await saveHomePage(c.get("deps").database.db, me.id, c.req.valid("json"));
      await tidyHeroes(c, me.id);
      return c.json(page, 200);
    })
    .openapi(r.legalGet, async (c) => {
      const me = await requireUser(c);
      const { database, env } = c.get("deps");
      return c.json(await getLegal(database.db, me.id, env.sitesDomain), 200);
    })
    .openapi(r.legalPut, async (c) => {
      const me = await requireUser(c);
      const { database, env } = c.get("deps");
      return c.json(await saveLegal(database.db, me.id, c.req.valid("json"), env.sitesDomain), 200);
    })
    .openapi(r.subscribersCsv, async (c) => {
      const me = await requireUser(c);
      const csv = subscribersCsv(await listSubscribers(c.get("deps").database.db, me.id));
      return c.body(csv, 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": 'attachment; filename="newsletter-subscribers.csv"',
      });
    });
}

function verificationMail(c: Context<AppVars>): VerificationMail {
  const deps = c.get("deps");
  return {
    mailer: deps.mailer,
    appOrigin: deps.env.appOrigin,
    allow: (address) => deps.limits.contactVerifyMail.take(address),
  };
}
