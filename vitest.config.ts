import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two cores: more workers only fight over them.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: "integration", include: ["src/**/*.test.ts", "src/**/*.test.tsx"] },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["e2e/**/*.e2e.ts"],
          globalSetup: ["e2e/global-setup.ts"],
          testTimeout: 90_000,
          maxWorkers: 1,
        },
      },
    ],
  },
});
