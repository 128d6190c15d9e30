import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const OUT = "dist/web";

/**
 * Brotli and gzip copies of every text asset, made once at build time at the highest levels
 * (too slow per request); the server sends the one the browser accepts (serveStatic
 * `precompressed`). Fonts (woff2) are compressed already.
 */
function precompress(): Plugin {
  return {
    name: "bookplate-precompress",
    apply: "build",
    closeBundle() {
      const dir = join(OUT, "assets");
      for (const name of readdirSync(dir)) {
        if (!/\.(js|css|svg|json)$/.test(name)) continue;
        const body = readFileSync(join(dir, name));
        writeFileSync(
          join(dir, `${name}.br`),
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(join(dir, `${name}.gz`), gzipSync(body, { level: 9 }));
      }
    },
  };
}

// The SPA lives in src/web and is built into dist/web, which the server serves: index.html for
// the known routes and the hashed files under /assets/*.
export default defineConfig({
  root: "src/web",
  publicDir: "public",
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    assetsDir: "assets",
    // The server finds the marketing pages' stylesheet (a second entry) through the manifest.
    manifest: true,
    rollupOptions: { input: { app: "src/web/index.html", marketing: "src/web/marketing.css" } },
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://localhost:3000" },
  },
});
