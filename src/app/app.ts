// The HTTP application. In front of it, the fast path answers cached public pages (src/sites/delivery/fast-path.ts).
// Middleware order matters and is the order below:
//  1. request id + access log        — every line of a request's log carries its id
//     then the input guard            — every host: body limit, NUL characters refused (ADR 049)
//  2. health probes, TLS ask          — answer on any host, before anything can fail
//  3. host routing                   — tenant hosts leave here for the public-site renderer
//     (then /metrics, app host only)
//  4. secure headers (app host CSP)
//  5. /api: body limit, origin check — then auth, then the feature routes
//  6. SPA: static assets, known routes → index.html, everything else → 404
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { hasSession, marketingNotFound, marketingRoutes } from "../marketing/routes.tsx";
import type { AppDeps, AppVars } from "../server/http/context.ts";
import { errorBody, errorResponse } from "../server/http/errors.ts";
import { inputGuard } from "../server/http/input-guard.ts";
import { clientAddress } from "../server/lib/client-address.ts";
import { DomainError } from "../server/lib/domain-error.ts";
import { classifyHost } from "../server/lib/host.ts";
import { createMetrics, mayReadMetrics } from "../server/lib/metrics.ts";
import { StoredFileMissing } from "../server/lib/storage.ts";
import { sandboxBillingRoutes } from "../server/modules/billing/sandbox.routes.ts";
import { mayIssueCertificate } from "../server/modules/domains/domains.service.ts";
import { MAGNET_STORAGE_PREFIX } from "../server/modules/newsletter/magnet.service.ts";
import { contactEmailRoutes } from "../server/modules/settings/contact-email.routes.ts";
import { defaultErrorCode } from "../shared/api-errors.ts";
import { isSpaRoute } from "../shared/app-routes.ts";
import { type Answered, cachedPageAnswerer } from "../sites/delivery/fast-path.ts";
import { handleSiteRequest, serveFont } from "../sites/handler.tsx";
import { renderWebsiteNotFound } from "../sites/render.tsx";
import type { SiteRuntime } from "../sites/runtime.ts";
import { createApi } from "./api.ts";

export type { AppDeps, AppVars } from "../server/http/context.ts";

const UPLOAD_TYPES: Record<string, string> = {
  webp: "image/webp",
  png: "image/png",
  jpg: "image/jpeg",
  zip: "application/zip",
};

const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Radix and sonner set inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  // https: an author's own picture addresses (post images, a photo link) show in the editors.
  "img-src 'self' data: blob: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "base-uri 'self'",
  "object-src 'none'",
].join("; ");

/** The app's dependencies and the public-site renderer's runtime, which the assembly hands to both. */
export type AssembledDeps = AppDeps & { sites: SiteRuntime };
type AssembledVars = { Variables: AppVars["Variables"] & { deps: AssembledDeps } };

export function createApp(deps: AssembledDeps) {
  const { env, database, logger } = deps;
  const appUrl = new URL(env.appOrigin);
  const hostCfg = { appHost: appUrl.host, sitesDomain: env.sitesDomain };
  const app = new Hono<AssembledVars>();
  const metrics = createMetrics(deps.sites.cache);

  /** Every answered request, by the app or by the fast path: metrics and one log line. */
  const record = (r: Answered, reqId: string | undefined) => {
    const ms = performance.now() - r.start;
    metrics.requestDuration.observe(r.method, r.hostKind, r.status, ms / 1000);
    if (!logger.isLevelEnabled("info")) return;
    logger.info(
      {
        reqId: reqId ?? randomUUID(),
        method: r.method,
        host: r.host,
        path: r.path,
        status: r.status,
        ms: Math.round(ms),
      },
      "request",
    );
  };

  app.use("*", requestId());
  app.use("*", async (c, next) => {
    const start = performance.now();
    c.set("deps", deps);
    await next();
    record(
      {
        method: c.req.method,
        hostKind: c.get("host")?.kind ?? "unknown",
        host: c.req.header("host"),
        path: c.req.path,
        status: c.res.status,
        start,
      },
      c.get("requestId"),
    );
  });

  // Before anything can read a body: tenant forms, marketing forms, billing, webhooks, the API.
  app.use("*", inputGuard());

  app.onError((err, c) => {
    // A service's refusal (DomainError) or a route's (HttpError): the one body, the code's status.
    if (err instanceof DomainError) return errorResponse(c, err);
    // Hono's own refusals (a validator's 415, say) get the one error body too.
    if (err instanceof HTTPException && err.status < 500) {
      return c.json(errorBody(defaultErrorCode(err.status), err.message || "Bad request"), err.status);
    }
    logger.error({ err, reqId: c.get("requestId") }, "unhandled error");
    return c.json(errorBody("internal_error", "An unexpected error occurred. Please try again."), 500);
  });

  app.get("/healthz", (c) => c.json({ status: "ok" }));
  // The TLS terminator's question before it gets a certificate on demand (Caddy's `ask`; README):
  // 200 for hosts we serve, 404 otherwise. Any host: the terminator asks on its own.
  app.get("/internal/tls/ask", async (c) => {
    const domain = c.req.query("domain") ?? "";
    const ok = await mayIssueCertificate(database.db, env, domain);
    return c.text(ok ? "ok" : "unknown host", ok ? 200 : 404, { "Cache-Control": "no-store" });
  });
  app.get("/readyz", async (c) => {
    try {
      await database.ping();
      return c.json({ status: "ready", database: database.kind });
    } catch (err) {
      logger.warn({ err }, "readiness check failed");
      return c.json({ status: "not ready" }, 503);
    }
  });

  // A reader magnet's file is only given through its reader's signed link (ADR 068), never here.
  app.all(`/uploads/${MAGNET_STORAGE_PREFIX}*`, (c) => c.notFound());
  // Uploaded images are served on every host: tenant pages show them.
  const uploadsRoot = deps.storage.localRoot;
  if (uploadsRoot) {
    mkdirSync(uploadsRoot, { recursive: true }); // serveStatic wants its root to exist up front
    app.use("/uploads/*", async (c, next) => {
      c.header("Cache-Control", "public, max-age=31536000, immutable");
      c.header("X-Content-Type-Options", "nosniff");
      return next();
    });
    app.use("/uploads/*", serveStatic({ root: uploadsRoot, rewriteRequestPath: (p) => p.replace(/^\/uploads/, "") }));
  } else {
    // Object storage: the app reads the file from the store (a CDN in front keeps it, ADR 030).
    app.get("/uploads/*", async (c) => {
      const key = c.req.path.slice("/uploads/".length);
      if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/.test(key) || key.includes("..")) return c.notFound();
      let bytes: Uint8Array;
      try {
        bytes = await deps.storage.read(key);
      } catch (err) {
        if (err instanceof StoredFileMissing) return c.notFound();
        throw err;
      }
      return c.body(new Uint8Array(bytes), 200, {
        "Content-Type": UPLOAD_TYPES[key.slice(key.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream",
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
      });
    });
  }

  // Site fonts are self-hosted and served on every host.
  app.get("/_fonts/*", serveFont);

  // 3. Tenant hosts are answered entirely here; nothing below is reachable from them.
  app.use("*", async (c, next) => {
    const host = classifyHost(c.req.header("host"), hostCfg);
    c.set("host", host);
    if (host.kind === "app") return next();
    c.header("Cache-Control", "no-store");
    if (host.kind === "unknown") return c.html(renderWebsiteNotFound(), 404);
    return handleSiteRequest(c, {
      lookup: host.kind === "subdomain" ? { subdomain: host.subdomain } : { customDomain: host.domain },
      basePath: "",
      mode: "tenant",
    });
  });

  // The operator's metrics exist on the app host only (a tenant host's /metrics is that site's
  // 404). Loopback is exempt from the token only by the same client-address rule as everything
  // else: behind a local reverse proxy the socket is loopback for every client.
  app.get("/metrics", async (c) => {
    const remote = clientAddress(c, env.trustProxy);
    if (!mayReadMetrics(remote, c.req.header("authorization"), env.metricsToken)) return c.text("Forbidden", 403);
    return c.text(await metrics.registry.metrics(), 200, { "Content-Type": metrics.registry.contentType });
  });

  app.use(
    "*",
    secureHeaders({
      contentSecurityPolicy: undefined,
      strictTransportSecurity: appUrl.protocol === "https:" ? "max-age=31536000; includeSubDomains" : false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: "strict-origin-when-cross-origin",
    }),
  );
  app.use("*", async (c, next) => {
    await next();
    // Site previews (/demo, /author) bring their own stricter policy. Set on the answer's own
    // headers: `c.header` after the answer is made rebuilds it as a stream (Hono asks whether
    // its body was used), which copied every API answer through a stream (ADR 072).
    if (c.res.headers.has("Content-Security-Policy")) return;
    try {
      c.res.headers.set("Content-Security-Policy", APP_CSP);
    } catch {
      c.header("Content-Security-Policy", APP_CSP); // headers that cannot change (Response.redirect)
    }
  });

  // 5. The API.
  // Its body limit (100 KB, uploads their own) is the input guard's, above.
  app.use("/api/*", async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.req.method !== "OPTIONS") {
      const origin = c.req.header("origin");
      const site = c.req.header("sec-fetch-site");
      if ((origin && origin !== appUrl.origin) || site === "cross-site") {
        return c.json(errorBody("cross_site_refused", "Cross-site request refused"), 403);
      }
    }
    c.header("Cache-Control", "no-store");
    return next();
  });

  app.route("/", createApi());
  app.all("/api/*", (c) => c.json(errorBody("not_found", "Not found"), 404));

  app.get("/main", (c) => c.redirect("/", 301));
  app.route("/billing/sandbox", sandboxBillingRoutes());
  // The page a contact-address verification link opens (ADR 014).
  app.route("/", contactEmailRoutes());

  // Site previews on the app host: /author/{sub} for authors, /demo for the sample site.
  for (const p of ["/author/:sub", "/author/:sub/*"]) {
    app.on(["GET", "HEAD", "POST"], p, (c) => {
      const sub = c.req.param("sub") ?? "";
      return handleSiteRequest(c, { lookup: { subdomain: sub }, basePath: `/author/${sub}`, mode: "preview" });
    });
  }
  for (const p of ["/demo", "/demo/*"]) {
    app.on(["GET", "HEAD", "POST"], p, (c) =>
      handleSiteRequest(c, { lookup: { subdomain: "demo" }, basePath: "/demo", mode: "demo" }),
    );
  }

  // 6. The marketing site: server-rendered, no framework JavaScript.
  app.route(
    "/",
    marketingRoutes({
      appOrigin: env.appOrigin,
      trustProxy: env.trustProxy,
      db: deps.database.db,
      mailer: deps.mailer,
      logger: deps.logger,
      webDist: deps.webDist,
    }),
  );

  // 7. The SPA.
  const indexPath = join(deps.webDist, "index.html");
  app.use("/assets/*", async (c, next) => {
    c.header("Cache-Control", "public, max-age=31536000, immutable");
    return next();
  });
  // Brotli or gzip copies made at build time (vite.config.ts), when the browser takes them.
  app.use("/assets/*", serveStatic({ root: deps.webDist, precompressed: true }));
  app.use("/favicon.svg", serveStatic({ root: deps.webDist }));
  app.get("*", (c) => {
    if (!isSpaRoute(c.req.path)) {
      // A real 404 for browsers and crawlers, as a page of the marketing site.
      const page = marketingNotFound(
        { appOrigin: env.appOrigin, webDist: deps.webDist },
        c.req.path,
        hasSession(c.req.raw.headers),
      );
      return c.body(page.html, 404, page.headers);
    }
    const status = 200;
    if (!existsSync(indexPath)) {
      return c.text("The web app is not built yet: run `npm run build` (npm start does this for you).", 503);
    }
    c.header("Cache-Control", "no-cache");
    return c.html(readFileSync(indexPath, "utf8"), status);
  });

  // The fast path in front of all this: cached public pages, answered before the app (ADR 033).
  const answerCached = cachedPageAnswerer({
    sites: deps.sites,
    hosts: hostCfg,
    trustProxy: env.trustProxy,
    countryHeader: env.countryHeader,
    record,
  });
  return { app, answerCached };
}
