// Runs once when a studio server starts (Next.js instrumentation hook).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Every variable is read once here: a bad value (STUDIO_JOB_STALE_MS=abc) stops the server, naming it.
  const { parseEnv } = await import("./lib/server/env");
  parseEnv();
  // A wrong store setting stops the server here, with the variable named, rather than at the first screenshot.
  const { requireObjectStoreAtStart } = await import("./lib/server/object-store");
  await requireObjectStoreAtStart();
  const { recoverAtStart } = await import("./lib/server/startup");
  await recoverAtStart();
}
