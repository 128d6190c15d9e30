import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The SPA lives in src/web and is built into dist/web, which the server serves: index.html for
// the known routes and the hashed files under /assets/*.
export default defineConfig({
  root: "src/web",
  publicDir: "public",
  plugins: [react(), tailwindcss()],
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
