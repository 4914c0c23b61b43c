import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "server/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One PostgreSQL server for the run, and its migrated template database (lib/server/testing/postgres.ts).
    globalSetup: ["lib/server/testing/vitest-postgres.ts"],
  },
});
