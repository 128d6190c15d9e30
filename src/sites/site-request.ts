// What the renderer knows of one request: which site, under which path, in which mode, and the
// few things read from the request itself (the page path, the blog's category, the site's origin).
import type { Context } from "hono";
import type { Database } from "../db/client.ts";
import type { Env } from "../server/env.ts";
import type { Logger } from "../server/lib/logger.ts";
import type { Storage } from "../server/lib/storage.ts";
import type { Auth } from "../server/modules/auth/auth.ts";
import type { Mailer } from "../server/modules/mail/mail.service.ts";
import type { SiteContext } from "../server/modules/sites/sites.service.ts";
import { memoByString } from "./memo.ts";
import { CATEGORIES } from "./pages/blog-page.tsx";
import type { SiteMode } from "./pages/layout.tsx";
import type { SiteRuntime } from "./runtime.ts";

/**
 * What the renderer reads from the request context: the part of the server's dependencies it
 * uses, declared here so that src/sites needs nothing from server/http (the app's context has
 * these and more).
 */
export type SiteDeps = {
  env: Pick<Env, "appOrigin" | "sitesDomain" | "trustProxy" | "uploadsPublicUrl" | "countryHeader">;
  database: Database;
  auth: Auth;
  mailer: Mailer;
  logger: Logger;
  sites: SiteRuntime;
  /** Checks the token of a reader's unsubscribe link (ADR 065) and signs free-book links (ADR 068). */
  unsubscribeKey: string;
  /** Where a reader magnet's file is read from for its download (ADR 068). */
  storage: Pick<Storage, "read">;
};
export type SiteVars = { Variables: { requestId: string; deps: SiteDeps } };

export type SiteLookup = { subdomain: string } | { customDomain: string };
export type SiteRequest = { lookup: SiteLookup; basePath: string; mode: SiteMode };

/** The scheme of APP_ORIGIN ("http:" or "https:"), which tenant hosts share. */
export const protocolOf = memoByString((origin) => new URL(origin).protocol);

export function siteOrigin(c: Context<SiteVars>, ctx: SiteContext): string {
  const env = c.get("deps").env;
  const proto = protocolOf(env.appOrigin);
  if (ctx.website.customDomain && ctx.customDomainVerified) return `${proto}//${ctx.website.customDomain}`;
  return `${proto}//${ctx.website.subdomain}.${env.sitesDomain}`;
}

export function sitePathOf(c: Context<SiteVars>, basePath: string): string {
  let p = c.req.path.slice(basePath.length) || "/";
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

/** The blog's category filter: a known category, or "" (all posts) for anything else. */
export function blogCategory(c: Context<SiteVars>): string {
  const raw = c.req.query("category") ?? "";
  return CATEGORIES.some((x) => x.key === raw) ? raw : "";
}
