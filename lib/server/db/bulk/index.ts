// The bulk writer for a studio database: rows go through the driver (better-sqlite3 or pg), not the
// Prisma client, whose per-row cost made it most of an import's time.
import { dialectOf, sqlitePath } from "../../env";
import { urlOf, type Db } from "../client";
import type { BulkWriter } from "./rows";

export type { BulkWriter, StagedChunk, StagedScreenshotRow, StagedStepRow, StagedTrajectoryRow } from "./rows";

export async function openBulkWriter(db: Db): Promise<BulkWriter> {
  const url = urlOf(db);
  // Each dialect's writer (and its driver) is loaded only when that dialect is in use.
  if (dialectOf(url) === "sqlite") return (await import("./sqlite")).openSqliteBulkWriter(sqlitePath(url));
  return (await import("./postgresql")).openPostgresBulkWriter(url);
}
