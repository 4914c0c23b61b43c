// An import's last step: the staged rows copied into the studio's tables in one transaction.
import path from "node:path";
import { type Db, Prisma } from "../db";
import { CLI_ACTOR, recordAudit } from "../people";
import { DEFAULT_PROJECT, type ImportOptions } from "./options";

const columns = (names: string[], prefix = "") => Prisma.raw(names.map((c) => `${prefix}"${c}"`).join(", "));
const TRAJECTORY_COLUMNS = [
  "fingerprint",
  "source",
  "sourceRef",
  "app",
  "instruction",
  "systemPrompt",
  "status",
  "outcome",
  "originalOutcome",
  "isDiscarded",
  "cutAfter",
  "stepCount",
  "metaJson",
];
const STEP_COLUMNS = [
  "trajectoryId",
  "index",
  "screenshotSha",
  "originalJson",
  "thoughtState",
  "thoughtNext",
  "thoughtPurpose",
  "thought",
  "clearAction",
  "toolCallJson",
  "boxJson",
  "candidateBoxJson",
  "verdict",
  "provenanceJson",
  "version",
];

/**
 * The batch's one short-as-possible last transaction: copy its staged screenshots, trajectories and
 * steps into the studio's tables (set-based, the same SQL on SQLite and PostgreSQL) and mark it
 * succeeded. A trajectory another import added meanwhile (same fingerprint) is skipped as a duplicate.
 */
export async function commitBatch(prisma: Db, opts: ImportOptions, batchId: string, projectId: string, duplicatesSeen: number) {
  const fileLabel = opts.displayName ?? path.basename(opts.file);
  return prisma.$transaction(
    async (tx) => {
      const now = new Date();
      // Each screenshot with the dHash its decode made (near-duplicate grouping reads it, never the image);
      // one the studio already holds without a hash (imported before hashing at import) gets it now.
      await tx.$executeRaw`INSERT INTO "Screenshot" ("sha256", "width", "height", "bytes", "mime", "dhash", "createdAt")
        SELECT "sha256", "width", "height", "bytes", "mime", "dhash", ${now} FROM "ImportStagedScreenshot" WHERE "batchId" = ${batchId}
        ON CONFLICT ("sha256") DO UPDATE SET "dhash" = excluded."dhash" WHERE "Screenshot"."dhash" IS NULL`;
      const stagedCount = await tx.importStagedTrajectory.count({ where: { batchId } });
      const trajectories =
        await tx.$executeRaw`INSERT INTO "Trajectory" ("id", "projectId", "batchId", ${columns(TRAJECTORY_COLUMNS)}, "createdAt", "updatedAt")
        SELECT "id", ${projectId}, ${batchId}, ${columns(TRAJECTORY_COLUMNS)}, ${now}, ${now} FROM "ImportStagedTrajectory" WHERE "batchId" = ${batchId}
        ON CONFLICT ("projectId", "fingerprint") DO NOTHING`;
      const steps = await tx.$executeRaw`INSERT INTO "Step" ("id", ${columns(STEP_COLUMNS)}, "updatedAt")
        SELECT s."id", ${columns(STEP_COLUMNS, "s.")}, ${now} FROM "ImportStagedStep" s
        WHERE s."batchId" = ${batchId} AND EXISTS (SELECT 1 FROM "Trajectory" t WHERE t."id" = s."trajectoryId" AND t."batchId" = ${batchId})`;
      const duplicates = duplicatesSeen + (stagedCount - trajectories);
      await tx.importBatch.update({
        where: { id: batchId },
        data: { status: "succeeded", trajectories, steps, duplicates, finishedAt: now, heartbeatAt: now },
      });
      await recordAudit(tx, {
        actor: opts.actor ?? CLI_ACTOR,
        action: "import.batch",
        entityType: "import_batch",
        entityId: batchId,
        after: { project: opts.project ?? DEFAULT_PROJECT, format: opts.format, file: fileLabel, trajectories, steps, duplicates },
      });
      return { trajectories, steps, duplicates };
    },
    { timeout: 10 * 60_000, maxWait: 60_000 },
  );
}
