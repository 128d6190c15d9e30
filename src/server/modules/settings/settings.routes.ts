// GET   /api/site/settings   → 200 SiteSettings (404 'Set up your website first')
// PATCH /api/site/settings   partial SiteSettings → 200 SiteSettings; 400 names the field
// GET   /api/site/contact    → 200 ContactSettingsView (the settings and where messages go)
// PUT   /api/site/contact    ContactSettings (whole) → 200 ContactSettingsView; 400 names the field;
//                            a new contact address is mailed a verification link (ADR 014)
// POST  /api/site/contact/verification → 200 ContactSettingsView, a new link mailed; 400 nothing
//                            pending; 429 the address had enough links this hour
// GET   /api/site/newsletter → 200 { embedCode }
// PUT   /api/site/newsletter { embedCode } → 200; 400 with the spec's embed warning
// GET   /api/site/home       → 200 HomePage (layout, hero image and colours, extra content)
// PUT   /api/site/home       HomePage (whole) → 200, content cleaned; 400 names the field
// GET   /api/site/legal      → 200 { content, isEnabled } (the Privacy & Legal page)
// PUT   /api/site/legal      { content, isEnabled } → 200, content cleaned; 400 names the field
// GET   /api/newsletter/subscribers      → 200 { subscribers } (the author's own list)
// GET   /api/newsletter/subscribers.csv  → confirmed subscribers as CSV
// DELETE /api/newsletter/subscribers/:id → 204; someone else's id is 404
// The owner is always the session's user: no path or body names whose settings these are.
import { type Context, Hono } from "hono";
import { contactSettingsSchema } from "../../../shared/schemas/contact-settings.ts";
import { homePageSchema } from "../../../shared/schemas/home-page.ts";
import { legalSchema } from "../../../shared/schemas/legal.ts";
import { newsletterSettingsSchema } from "../../../shared/schemas/newsletter-settings.ts";
import { siteSettingsUpdateSchema } from "../../../shared/schemas/site-settings.ts";
import type { AppVars } from "../../http/context.ts";
import { HttpError, readJson } from "../../http/errors.ts";
import { requireUser } from "../../http/session.ts";
import type { VerificationMail } from "./contact-email.service.ts";
import {
  getContactSettings,
  getHomePage,
  getLegal,
  getNewsletterSettings,
  getSiteSettings,
  listSubscribers,
  removeSubscriber,
  resendContactVerification,
  saveContactSettings,
  saveHomePage,
  saveLegal,
  saveNewsletterSettings,
  subscribersCsv,
  updateSiteSettings,
} from "./settings.service.ts";

export function settingsRoutes() {
  const r = new Hono<AppVars>();

  r.get("/site/settings", async (c) => {
    const me = await requireUser(c);
    return c.json(await getSiteSettings(c.get("deps").database.db, me.id));
  });

  r.patch("/site/settings", async (c) => {
    const me = await requireUser(c);
    const input = await readJson(c, siteSettingsUpdateSchema);
    return c.json(await updateSiteSettings(c.get("deps").database.db, me.id, input));
  });

  r.get("/site/contact", async (c) => {
    const me = await requireUser(c);
    return c.json(await getContactSettings(c.get("deps").database.db, me.id));
  });

  r.put("/site/contact", async (c) => {
    const me = await requireUser(c);
    const input = await readJson(c, contactSettingsSchema);
    return c.json(await saveContactSettings(c.get("deps").database.db, me.id, input, verificationMail(c)));
  });

  r.post("/site/contact/verification", async (c) => {
    const me = await requireUser(c);
    return c.json(await resendContactVerification(c.get("deps").database.db, me.id, verificationMail(c)));
  });

  r.get("/site/newsletter", async (c) => {
    const me = await requireUser(c);
    return c.json(await getNewsletterSettings(c.get("deps").database.db, me.id));
  });

  r.put("/site/newsletter", async (c) => {
    const me = await requireUser(c);
    const input = await readJson(c, newsletterSettingsSchema);
    return c.json(await saveNewsletterSettings(c.get("deps").database.db, me.id, input));
  });

  r.get("/site/home", async (c) => {
    const me = await requireUser(c);
    return c.json(await getHomePage(c.get("deps").database.db, me.id));
  });

  r.put("/site/home", async (c) => {
    const me = await requireUser(c);
    const input = await readJson(c, homePageSchema);
    return c.json(await saveHomePage(c.get("deps").database.db, me.id, input));
  });

  r.get("/site/legal", async (c) => {
    const me = await requireUser(c);
    return c.json(await getLegal(c.get("deps").database.db, me.id));
  });

  r.put("/site/legal", async (c) => {
    const me = await requireUser(c);
    const input = await readJson(c, legalSchema);
    return c.json(await saveLegal(c.get("deps").database.db, me.id, input));
  });

  r.get("/newsletter/subscribers", async (c) => {
    const me = await requireUser(c);
    return c.json({ subscribers: await listSubscribers(c.get("deps").database.db, me.id) });
  });

  r.get("/newsletter/subscribers.csv", async (c) => {
    const me = await requireUser(c);
    const csv = subscribersCsv(await listSubscribers(c.get("deps").database.db, me.id));
    return c.body(csv, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="newsletter-subscribers.csv"',
    });
  });

  r.delete("/newsletter/subscribers/:id", async (c) => {
    const me = await requireUser(c);
    const id = c.req.param("id");
    if (!UUID.test(id)) throw new HttpError(404, "Subscriber not found");
    await removeSubscriber(c.get("deps").database.db, me.id, id.toLowerCase());
    return c.body(null, 204);
  });

  return r;
}

function verificationMail(c: Context<AppVars>): VerificationMail {
  const deps = c.get("deps");
  return {
    mailer: deps.mailer,
    appOrigin: deps.env.appOrigin,
    allow: (address) => deps.sites.limits.contactVerifyMail.take(address),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
