// The import boundaries of the design brief (§3), enforced in `npm run lint`.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "shared-is-a-leaf",
      comment: "src/shared holds contracts used everywhere; it imports nothing of ours.",
      severity: "error",
      from: { path: "^src/shared/" },
      to: { path: "^src/(db|server|sites|marketing|web)/" },
    },
    {
      name: "db-below-server",
      comment: "The database layer knows nothing of the server, sites or screens.",
      severity: "error",
      from: { path: "^src/db/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^src/(server|sites|marketing|web)/" },
    },
    {
      name: "modules-below-app",
      comment: "Feature modules never import the app assembly (their tests may start it).",
      severity: "error",
      from: { path: "^src/server/(modules|http|lib|jobs)/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^src/app/" },
    },
    {
      name: "http-and-lib-below-modules",
      comment:
        "server/http and server/lib are the floor the modules stand on: at run time they import no module " +
        "or screen (the request context names module types only).",
      severity: "error",
      from: { path: "^src/server/(http|lib)/", pathNot: "\\.test\\.tsx?$" },
      to: {
        path: "^src/(server/(modules|jobs)/|app/|marketing/|web/)",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "http-and-lib-never-import-sites",
      comment:
        "The public-site renderer stands on the modules; server/http and server/lib name nothing of it, not " +
        "even a type (the site runtime's interface lives in modules/sites).",
      severity: "error",
      from: { path: "^src/server/(http|lib)/" },
      to: { path: "^src/(sites|marketing)/" },
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
      name: "services-not-queries-across-modules",
      comment: "Other modules call a module's service, never its queries.",
      severity: "error",
      from: { path: "^src/server/modules/([^/]+)/" },
      to: { path: "^src/server/modules/([^/]+)/.+\\.queries\\.ts$", pathNot: "^src/server/modules/$1/" },
    },
    {
      name: "sites-use-services",
      comment: "The public renderers use shared, db and module services only.",
      severity: "error",
      // Tests drive the whole server through real requests, so they may start it.
      from: { path: "^src/(sites|marketing)/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^src/(web/|app/|server/modules/[^/]+/.+\\.(queries|routes)\\.ts)" },
    },
    {
      name: "web-is-client-only",
      comment: "The SPA uses shared code and, type-only, the API's types.",
      severity: "error",
      from: { path: "^src/web/" },
      to: { path: "^src/(db|server|sites|marketing)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "features-are-independent",
      comment: "A web feature never imports another feature; routes compose them.",
      severity: "error",
      from: { path: "^src/web/features/([^/]+)/" },
      to: { path: "^src/web/features/([^/]+)/", pathNot: "^src/web/features/$1/" },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true, dependencyTypesNot: ["type-only"] },
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
