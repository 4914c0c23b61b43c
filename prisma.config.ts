import { defineConfig } from "prisma/config";

// Prisma 7 reads the datasource URL from here, not from the schema. The app itself connects
// through a driver adapter (lib/server/db/index.ts); this file only serves the CLI (generate).
export default defineConfig({
  schema: "prisma/schema.prisma",
  datasource: { url: process.env.DATABASE_URL ?? "file:./data/studio.db" },
});
