import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The tests that run `node dist/cli/main.js` never see a missing or stale build.
    globalSetup: ["test/support/fresh-dist.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
