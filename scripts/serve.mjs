// Prepare a studio (migrate, demo data on first run), build and serve it.
// Used by `npm run demo` (port 3000, ./data) and by the browser tests (own port and data dir).
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const port = process.env.PORT ?? "3000";
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function run(cmd, args, label) {
  console.log(`\n▸ ${label}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, env, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`✗ ${label} failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

run(process.execPath, [path.join(ROOT, "scripts/studio.mjs"), "setup-demo"], "database and demo data");
if (process.env.STUDIO_SKIP_BUILD !== "1")
  run(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], "building the studio");

console.log(`\n▸ serving the studio on http://127.0.0.1:${port}\n`);
const server = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "server/main.ts")], {
  cwd: ROOT,
  env: { ...env, PORT: port },
  stdio: "inherit",
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code) => process.exit(code ?? 0));
