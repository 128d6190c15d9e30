// The /api surface in one place: every module's routes under /api, and the OpenAPI document
// their declarations make (ADR 021). `app.ts` mounts it; the app's client is typed by `Api`
// (a type-only import: no server code reaches the browser).
import { apiRouter } from "../server/http/openapi.ts";
import { accountRoutes } from "../server/modules/account/account.routes.ts";
import { adminRoutes } from "../server/modules/admin/admin.routes.ts";
import { adminActionsRoutes } from "../server/modules/admin/admin-actions.routes.ts";
import { newsletterSendingRoutes } from "../server/modules/admin/newsletter-sending.routes.ts";
import { authRoutes } from "../server/modules/auth/auth.routes.ts";
import { documentAuthRoutes } from "../server/modules/auth/auth-endpoints.ts";
import { billingRoutes } from "../server/modules/billing/billing.routes.ts";
import { booksRoutes } from "../server/modules/books/books.routes.ts";
import { launchRoutes } from "../server/modules/books/launches.routes.ts";
import { seriesRoutes } from "../server/modules/books/series.routes.ts";
import { domainRoutes } from "../server/modules/domains/domains.routes.ts";
import { listSettingsRoutes } from "../server/modules/newsletter/list-settings.routes.ts";
import { magnetRoutes } from "../server/modules/newsletter/magnet.routes.ts";
import { newslettersRoutes } from "../server/modules/newsletter/newsletters.routes.ts";
import { subscribersRoutes } from "../server/modules/newsletter/subscribers.routes.ts";
import { onboardingRoutes } from "../server/modules/onboarding/onboarding.routes.ts";
import { postsRoutes } from "../server/modules/posts/posts.routes.ts";
import { profileRoutes } from "../server/modules/profile/profile.routes.ts";
import { settingsRoutes } from "../server/modules/settings/settings.routes.ts";
import { statsRoutes } from "../server/modules/stats/stats.routes.ts";
import { supportRoutes } from "../server/modules/support/support.routes.ts";

export const API_DOCUMENT_PATH = "/api/openapi.json";

const DOCUMENT_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Bookplate API",
    version: "1",
    description:
      "The dashboard's API. Every error is `{ error: { code, message, field?, issues? } }` with a code from src/shared/api-errors.ts. Sign-in is a session cookie set by /api/auth/sign-in/email.",
  },
  servers: [{ url: "/", description: "The app's own origin: the API is served beside the dashboard" }],
};

export function createApi() {
  // One chain, so the type of the result carries every route: the app's client is typed by it.
  const api = apiRouter()
    .basePath("/api")
    .route("/", authRoutes())
    .route("/", profileRoutes())
    .route("/", onboardingRoutes())
    .route("/", billingRoutes())
    .route("/", booksRoutes())
    .route("/", seriesRoutes())
    .route("/", launchRoutes())
    .route("/", settingsRoutes())
    .route("/", subscribersRoutes())
    .route("/", magnetRoutes())
    .route("/", postsRoutes())
    .route("/", newslettersRoutes())
    .route("/", listSettingsRoutes())
    .route("/", statsRoutes())
    .route("/", accountRoutes())
    .route("/", domainRoutes())
    .route("/", supportRoutes())
    .route("/", adminRoutes())
    .route("/", adminActionsRoutes())
    .route("/", newsletterSendingRoutes());
  documentAuthRoutes(api.openAPIRegistry);
  api.doc31("/openapi.json", DOCUMENT_INFO);
  return api;
}

/** The type the app's API client is built from (src/web/lib/api.ts). */
export type Api = ReturnType<typeof createApi>;

/** The document `GET /api/openapi.json` serves. */
export function apiDocument() {
  return createApi().getOpenAPI31Document(DOCUMENT_INFO);
}
