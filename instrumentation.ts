// Runs once when a studio server starts (Next.js instrumentation hook).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { recoverAtStart } = await import("./lib/server/startup");
  await recoverAtStart();
}
