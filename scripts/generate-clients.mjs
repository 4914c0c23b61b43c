// Generates one Prisma client per dialect (lib/server/generated/<dialect>), offline.
// Prisma 7 runs queries through a driver adapter and a wasm query compiler, so no engine
// binary is needed; PRISMA_SCHEMA_ENGINE_BINARY=/bin/true only keeps the CLI from fetching one.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DIALECTS, ROOT, schemaFor } from "./prisma-dialects.mjs";

const tmp = path.join(ROOT, ".tmp/prisma");
mkdirSync(tmp, { recursive: true });
for (const dialect of DIALECTS) {
  const file = path.join(tmp, `schema.${dialect}.prisma`);
  writeFileSync(file, schemaFor(dialect, { output: `../../lib/server/generated/${dialect}` }));
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/prisma/build/index.js"), "generate", "--schema", file], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true", CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
  console.log(`generated the ${dialect} client in lib/server/generated/${dialect}`);
}
