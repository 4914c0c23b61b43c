// The schema is written once (prisma/schema.prisma, provider "sqlite"). These helpers derive the
// per-dialect copies the Prisma CLIs need: one generated client per dialect, and SQL migrations
// per dialect. Nothing here talks to a network.
import { readFileSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const DIALECTS = ["sqlite", "postgresql"];

/** Schema text for `dialect`; `url` adds the datasource url line Prisma 6's diff needs; `output` moves the client. */
export function schemaFor(dialect, { url, output } = {}) {
  let text = readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8");
  text = text.replace(/provider\s*=\s*"sqlite"/, `provider = "${dialect}"${url ? `\n  url      = "${url}"` : ""}`);
  if (output) text = text.replace(/output\s*=\s*"[^"]*"/, `output       = "${output}"`);
  return text;
}
