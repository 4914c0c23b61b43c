import path from "node:path";

/** The demo accounts `npm run studio -- setup-demo` creates (lib/server/startup/seed.ts). */
export const DEMO_ACCOUNTS = [
  { role: "admin", email: "admin@studio.local", password: "studio-admin" },
  { role: "reviewer", email: "reviewer@studio.local", password: "studio-reviewer" },
  { role: "annotator", email: "annotator@studio.local", password: "studio-annotator" },
] as const;
export type DemoRole = (typeof DEMO_ACCOUNTS)[number]["role"];

export function storageStateFor(role: DemoRole): string {
  return path.resolve(".tmp/e2e-auth", `${role}.json`);
}
