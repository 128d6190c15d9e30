// The import boundaries of the design brief (§3) and of ADR 056, enforced in `npm run lint`.
//
// The floors, top to bottom (an import may only point down, or stay on its floor):
//   src/testing        test support: starts the assembly; imported by tests only
//   src/app            the assembly: main, server, app, api, cli
//   src/marketing      the marketing pages    ┐ the renderers
//   src/sites          the public author sites┘ (marketing may use sites/delivery, not the reverse)
//   src/server/jobs    timed work
//   src/server/modules feature modules (routes → service → queries); they meet at their services
//   src/server/http    the request plumbing (context, errors, session, openapi)
//   src/server/lib, src/server/env.ts   plain helpers
//   src/db             schema, client, migrations
//   src/shared         contracts (schemas, enums) every side uses; a leaf
// src/web is the browser's: it uses src/shared and, type-only, the API's types (src/app/api.ts).
// Tests (*.test.ts) may start the whole server, so the rules about climbing to the assembly and
// test support do not apply to them; every other rule does.

/** Files of a module that other modules may import besides its `*.service.ts`, each on purpose. */
const PUBLIC_MODULE_FILES = [
  // The payment provider port: routes of account, domains and onboarding ask which provider is
  // configured (Stripe or the sandbox) and hand it to their service.
  "billing/provider\\.ts",
  // Exact money conversion, shared by the back office's figures and billing's prices.
  "admin/money\\.ts",
  // The privacy notice a site shows, which the settings preview renders too.
  "sites/privacy-notice\\.ts",
  // The one layout of every mail (ADR 065): a module that mails its readers builds its body with it.
  "mail/mail-layout\\.ts",
].join("|");

const TESTS = "\\.test\\.tsx?$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "shared-is-a-leaf",
      comment: "src/shared holds contracts used everywhere; it imports nothing of ours.",
      severity: "error",
      from: { path: "^src/shared/" },
      to: { path: "^src/(db|server|sites|marketing|web|app|testing)/" },
    },
    {
      name: "db-below-server",
      comment: "The database layer knows nothing of the server, sites, screens or the assembly.",
      severity: "error",
      from: { path: "^src/db/", pathNot: TESTS },
      to: { path: "^src/(server|sites|marketing|web|app)/" },
    },
    {
      name: "nothing-imports-the-assembly",
      comment:
        "src/app is the top floor: it mounts everything and nothing below imports it, not even a type " +
        "(tests and test support may start it; the SPA takes the API's type, see web-is-client-only).",
      severity: "error",
      from: { path: "^src/(server|sites|marketing|db|shared)/", pathNot: TESTS },
      to: { path: "^src/app/" },
    },
    {
      name: "production-never-imports-test-support",
      comment: "src/testing starts servers, fakes Stripe and catches mail: only tests and test support import it.",
      severity: "error",
      from: { path: "^src/", pathNot: `${TESTS}|^src/testing/` },
      to: { path: "^src/testing/" },
    },
    {
      name: "server-below-renderers",
      comment:
        "The renderers (src/sites, src/marketing) stand on the server's floors: no module, job, http or lib " +
        "file names them, not even a type (a module importing the renderer, a job importing the renderer).",
      severity: "error",
      from: { path: "^src/server/", pathNot: TESTS },
      to: { path: "^src/(sites|marketing)/" },
    },
    {
      name: "sites-below-marketing",
      comment:
        "The marketing pages may use the sites' delivery (page cache, encodings); the sites never name marketing.",
      severity: "error",
      from: { path: "^src/sites/" },
      to: { path: "^src/marketing/" },
    },
    {
      name: "http-and-lib-below-modules",
      comment:
        "server/http and server/lib are the floor the modules stand on: they import no module or job, not " +
        "even a type (a module adds its part of the request context's AppDeps in its deps.ts; ADR 078).",
      severity: "error",
      from: { path: "^src/server/(http|lib)/", pathNot: TESTS },
      to: { path: "^src/server/(modules|jobs)/" },
    },
    {
      name: "jobs-above-modules",
      comment: "Jobs call module services; modules never start or name a job.",
      severity: "error",
      from: { path: "^src/server/(modules|http|lib)/", pathNot: TESTS },
      to: { path: "^src/server/jobs/" },
    },
    {
      name: "lib-below-http",
      comment:
        "server/lib is plain helpers: it imports nothing of the request plumbing, not even a type (no HttpError, " +
        "no context; a refusal is a DomainError), so jobs and the renderers use it as they are.",
      severity: "error",
      from: { path: "^src/server/lib/", pathNot: TESTS },
      to: { path: "^src/server/http/" },
    },
    {
      name: "sites-not-through-http",
      comment:
        "src/sites declares the context it reads (SiteVars) and uses server/lib, not server/http: the two " +
        "never import each other, so the renderer can be mounted without the app's request plumbing.",
      severity: "error",
      from: { path: "^src/(sites|marketing)/" },
      to: { path: "^src/server/http/" },
    },
    {
      name: "routes-do-not-touch-the-database",
      comment: "A route reads the request and calls its service; queries and the database live below it.",
      severity: "error",
      from: { path: "\\.routes\\.ts$" },
      to: { path: "^src/db/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "routes-call-services-not-queries",
      comment: "A route calls its service, never a queries file, not even its own module's.",
      severity: "error",
      from: { path: "\\.routes\\.ts$" },
      to: { path: "\\.queries\\.ts$" },
    },
    {
      name: "services-not-queries-across-modules",
      comment: "Other modules call a module's service, never its queries.",
      severity: "error",
      from: { path: "^src/server/modules/([^/]+)/" },
      to: { path: "^src/server/modules/([^/]+)/.+\\.queries\\.ts$", pathNot: "^src/server/modules/$1/" },
    },
    {
      name: "modules-meet-at-their-services",
      comment:
        "A module's internals are its own: another module imports its *.service.ts, or a file declared " +
        "public in PUBLIC_MODULE_FILES above, and nothing else (type-only too).",
      severity: "error",
      from: { path: "^src/server/modules/([^/]+)/", pathNot: TESTS },
      to: {
        path: "^src/server/modules/[^/]+/",
        pathNot: `^src/server/modules/$1/|\\.service\\.ts$|^src/server/modules/(${PUBLIC_MODULE_FILES})$`,
      },
    },
    {
      name: "sites-use-services",
      comment: "The public renderers use shared, db, lib and module services only: no screens, routes or queries.",
      severity: "error",
      from: { path: "^src/(sites|marketing)/", pathNot: TESTS },
      to: { path: "^src/(web/|server/modules/[^/]+/.+\\.(queries|routes)\\.ts)" },
    },
    {
      name: "server-never-imports-web",
      comment: "The SPA is built for the browser apart: no server, renderer, database or assembly code imports it.",
      severity: "error",
      from: { path: "^src/(server|sites|marketing|db|app|shared)/" },
      to: { path: "^src/web/" },
    },
    {
      name: "web-is-client-only",
      comment: "The SPA uses shared code and, type-only, the API's types.",
      severity: "error",
      from: { path: "^src/web/" },
      to: { path: "^src/(db|server|sites|marketing|app|testing)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "features-are-independent",
      comment: "A web feature never imports another feature; routes compose them.",
      severity: "error",
      from: { path: "^src/web/features/([^/]+)/" },
      to: { path: "^src/web/features/([^/]+)/", pathNot: "^src/web/features/$1/" },
    },
    {
      name: "features-below-the-app-shell",
      comment: "The app shell (src/web/app: routes, layout) composes the features; a feature never imports it.",
      severity: "error",
      from: { path: "^src/web/features/" },
      to: { path: "^src/web/app/" },
    },
    {
      name: "no-circular",
      comment: "No cycle, type-only imports included.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules|dist" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
