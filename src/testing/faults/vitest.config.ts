// The standing fault suite (`npm run test:faults`), apart from `npm test`: it starts real server
// processes, kills them and restarts PostgreSQL, so it runs alone, one file at a time.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("../../..", import.meta.url)),
  test: {
    name: "faults",
    include: ["src/testing/faults/**/*.fault.ts"],
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
