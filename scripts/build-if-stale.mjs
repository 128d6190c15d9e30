// `npm start` builds what it runs when it is missing or older than its sources, so a fresh clone
// needs only `npm install` and `npm start`:
// - the web app (dist/web, Vite), and
// - the server (dist/server/main.js, an esbuild bundle). Production runs plain JavaScript: no
//   transpiler in the process and no wrapper process (ADR 037).
// `node scripts/build-if-stale.mjs server` builds only the server (the process tests use it).
import { execSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The newest modification time of a file, or of any file under a directory. */
function newest(path) {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  let t = 0;
  for (const e of readdirSync(path, { withFileTypes: true })) t = Math.max(t, newest(join(path, e.name)));
  return t;
}
const stale = (out, sources) =>
  !existsSync(out) || sources.filter(existsSync).some((d) => newest(d) > statSync(out).mtimeMs);

const only = process.argv[2];

// src/marketing: its classes are in the marketing stylesheet the build makes.
if (only !== "server" && stale("dist/web/index.html", ["src/web", "src/shared", "src/marketing", "vite.config.ts"])) {
  console.log("Building the web app (first start, or its sources changed)…");
  // Always the production bundle, whatever NODE_ENV the caller runs with (tests set "test").
  execSync("npx vite build --logLevel warn", { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
}

const server = "dist/server/main.js";
if (only !== "web" && stale(server, ["src", "package-lock.json", "scripts/build-if-stale.mjs"])) {
  console.log("Building the server (first start, or its sources changed)…");
  const { build } = await import("esbuild");
  rmSync("dist/server", { recursive: true, force: true });
  const result = await build({
    // The embedded database's thread (ADR 088) is a file of its own beside main.js.
    entryPoints: { main: "src/app/main.ts", "pglite-worker": "src/db/pglite-worker.ts" },
    outdir: "dist/server",
    bundle: true,
    // Lazily imported parts (image processing, Stripe, mail transport, S3) become chunks of
    // their own, loaded on first use.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    platform: "node",
    format: "esm",
    target: "node24",
    // Packages are bundled too (one file parses faster and holds less than thousands of modules),
    // except those that load files of their own at run time: native addons and PGlite's
    // WebAssembly and data files.
    external: ["sharp", "@electric-sql/pglite", "pg-native"],
    // The production builds of React and the rest: this bundle is what production runs.
    define: { "process.env.NODE_ENV": '"production"' },
    // CommonJS packages in an ES module bundle still call require() for Node's own modules.
    banner: {
      js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);',
    },
    // Whitespace and comments out and syntax shortened: V8 keeps every script's source in the heap
    // (and a single non-ASCII character in a comment doubles it). Identifiers are not minified,
    // so stack traces read as the sources do (a name two modules share gets a digit: Layout2).
    // No keepNames: it wraps every named function, nested ones too, in a call that redefines
    // its `name` each time the function is created, and with it the uncached page cost ~1.6×
    // the server CPU under the young generation npm start gives (ADR 039).
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    sourcemap: "linked",
    logLevel: "warning",
    // What went into which file (npm run bench:memory reports the packages loaded at start).
    metafile: true,
    // The bundle's import.meta.url is dist/server/main.js: the files read beside the sources
    // are copied beside it (below).
  });
  writeFileSync("dist/server/meta.json", JSON.stringify(result.metafile));
  cpSync("src/db/migrations", "dist/server/migrations", { recursive: true });
  cpSync("src/marketing/gallery", "dist/server/gallery", { recursive: true });
}

// A new embedded database starts from a copy of an empty one, made at build time with every
// migration applied, instead of running PostgreSQL's initdb and then each migration on its first
// start (seconds of WebAssembly; ADR 064). The copy is kept in dist/ (outside dist/server, so a
// server rebuild reuses it) under the PGlite version and a hash of the migrations, and placed
// beside the bundle, where src/db/client.ts looks for it. A later migration still runs at start.
const template = "dist/server/pglite-template.tar.gz";
if (only !== "web" && existsSync(server) && !existsSync(template)) {
  const { version } = JSON.parse(readFileSync("node_modules/@electric-sql/pglite/package.json", "utf8"));
  const hash = createHash("sha256");
  for (const f of readdirSync("src/db/migrations", { recursive: true }).map(String).sort()) {
    const path = join("src/db/migrations", f);
    if (!statSync(path).isDirectory()) hash.update(f).update(readFileSync(path));
  }
  const kept = `dist/pglite-template-${version}-${hash.digest("hex").slice(0, 12)}.tar.gz`;
  if (!existsSync(kept)) {
    console.log("Making the empty embedded database new data directories start from…");
    const { PGlite } = await import("@electric-sql/pglite");
    const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const pg = await PGlite.create({ extensions: { pg_trgm } });
    await migrate(drizzle(pg), { migrationsFolder: "src/db/migrations" });
    await pg.query("CHECKPOINT");
    const tar = Buffer.from(await (await pg.dumpDataDir("gzip")).arrayBuffer());
    await pg.close();
    mkdirSync("dist", { recursive: true });
    writeFileSync(`${kept}.tmp`, tar);
    cpSync(`${kept}.tmp`, kept);
    rmSync(`${kept}.tmp`);
  }
  cpSync(kept, template);
}
