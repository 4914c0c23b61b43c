import { defineConfig } from "vitest/config";
import { availableParallelism } from "node:os";
import path from "node:path";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "server/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one file at a time on CI's two. Most files
    // wait on databases, child processes and servers rather than compute, so two files run at once there.
    maxWorkers: Math.max(2, availableParallelism()),
    // One PostgreSQL server for the run, and its migrated template database (lib/server/testing/postgres.ts).
    globalSetup: ["lib/server/testing/vitest-postgres.ts"],
  },
});
