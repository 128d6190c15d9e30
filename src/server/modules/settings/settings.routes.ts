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
import { HERO_MAX_BYTES, HERO_WIDTHS } from "../../../shared/schemas/uploads.ts";
import type { AppVars } from "../../http/context.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { storeUploadedImage, tidyUploads, uploadBody, uploadLimit } from "../../http/uploads.ts";
import { imageTooLarge } from "../../lib/images.ts";
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

// Every /site route answers 404 'Set up your website first' before onboarding made the site.
const route = routes({ tags: ["Site settings"], errors: [404] });
const newsletterRoute = routes({ tags: ["Newsletter"] });
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
const siteStatus = json(siteStatusSchema, "What readers see");

const r = {
  status: route.record("patch", "/site/status", {
    answer: siteStatus,
    read: "Whether readers can see the site (the renderer's rule) and which sections are in its menu",
    save: "Hide the dashboard's getting-started checklist, or show it again (on every device)",
    body: siteStatusUpdateSchema,
  }),
  site: route.record("patch", "/site/settings", {
    answer: site,
    read: "The site's settings",
    save: "Change the site's settings (only the fields sent)",
    body: siteSettingsUpdateSchema,
  }),
  contact: route.record("put", "/site/contact", {
    answer: contact,
    read: "The contact settings",
    save: "Save the contact settings (a new contact address is mailed a verification link)",
    body: contactSettingsSchema,
  }),
  contactResend: route.post("/site/contact/verification", {
    summary: "Mail the pending contact address a new link",
    ok: { 200: contact },
    errors: [400, 429],
  }),
  blog: route.record("put", "/site/blog", {
    answer: blog,
    read: "The Blog page's title and description",
    save: "Save the Blog page's title and description (empty: the default)",
    body: blogPageSchema,
  }),
  heroUpload: route.post("/site/hero", {
    summary: "Upload the home page's hero image",
    description: `Stored as WebP in ${HERO_WIDTHS.length} widths (1920 × 800 or larger looks best). At most ${HERO_MAX_BYTES / 1024 / 1024} MB.`,
    body: uploadBody,
    middleware: [uploadLimit(HERO_MAX_BYTES, heroTooLarge)],
    ok: { 200: home },
    errors: [413],
  }),
  heroRemove: route.delete("/site/hero", { summary: "Remove the hero image", ok: { 200: home } }),
  newsletter: route.record("put", "/site/newsletter", {
    answer: newsletter,
    read: "The newsletter settings",
    save: "Save the newsletter settings",
    body: newsletterSettingsSchema,
  }),
  home: route.record("put", "/site/home", {
    answer: home,
    read: "The home page's sections",
    save: "Save the home page's sections",
    body: homePageSchema,
  }),
  legal: route.record("put", "/site/legal", {
    answer: legal,
    read: "The Privacy & Legal page",
    save: "Save the legal page",
    body: legalSchema,
  }),
  subscribersCsv: newsletterRoute.get("/newsletter/subscribers.csv", {
    summary: "Confirmed subscribers as a CSV download",
    ok: { 200: { description: "CSV", content: { "text/csv": { schema: z.string() } } } },
  }),
};

export function settingsRoutes() {
  return apiRouter()
    .openapi(...answer(r.status.get, (c, me) => getStatus(db(c), me.id)))
    .openapi(...answer(r.status.save, (c, me) => updateStatus(db(c), me.id, c.req.valid("json"))))
    .openapi(...answer(r.site.get, (c, me) => getSiteSettings(db(c), me.id)))
    .openapi(...answer(r.site.save, (c, me) => updateSiteSettings(db(c), me.id, c.req.valid("json"))))
    .openapi(...answer(r.contact.get, (c, me) => getContactSettings(db(c), me.id)))
    .openapi(
      ...answer(r.contact.save, (c, me) => saveContactSettings(db(c), me.id, c.req.valid("json"), verificationMail(c))),
    )
    .openapi(...answer(r.contactResend, (c, me) => resendContactVerification(db(c), me.id, verificationMail(c))))
    .openapi(...answer(r.blog.get, (c, me) => getBlogPage(db(c), me.id)))
    .openapi(...answer(r.blog.save, (c, me) => saveBlogPage(db(c), me.id, c.req.valid("json"))))
    .openapi(
      ...answer(r.heroUpload, async (c, me) => {
        await getHomePage(db(c), me.id); // no website: 404 before the upload is read
        const variants = await storeUploadedImage(c, HERO_RULES, heroDir(me.id));
        const page = await setHero(db(c), me.id, variants);
        await tidyHeroes(c, me.id);
        return page;
      }),
    )
    .openapi(
      ...answer(r.heroRemove, async (c, me) => {
        const page = await setHero(db(c), me.id, null);
        await tidyHeroes(c, me.id, 0);
        return page;
      }),
    )
    .openapi(...answer(r.newsletter.get, (c, me) => getNewsletterSettings(db(c), me.id)))
    .openapi(...answer(r.newsletter.save, (c, me) => saveNewsletterSettings(db(c), me.id, c.req.valid("json"))))
    .openapi(...answer(r.home.get, (c, me) => getHomePage(db(c), me.id)))
    .openapi(
      ...answer(r.home.save, async (c, me) => {
        const page = await saveHomePage(db(c), me.id, c.req.valid("json"));
        await tidyHeroes(c, me.id);
        return page;
      }),
    )
    .openapi(...answer(r.legal.get, (c, me) => getLegal(db(c), me.id, c.get("deps").env.sitesDomain)))
    .openapi(
      ...answer(r.legal.save, (c, me) => saveLegal(db(c), me.id, c.req.valid("json"), c.get("deps").env.sitesDomain)),
    )
    .openapi(r.subscribersCsv, async (c) => {
      const me = await requireUser(c);
      const csv = subscribersCsv(await listSubscribers(db(c), me.id));
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
