-- AlterTable
ALTER TABLE "Project" ADD COLUMN "goldRate" REAL;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Trajectory" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sourceRef" TEXT,
    "app" TEXT NOT NULL,
    "instruction" TEXT NOT NULL,
    "systemPrompt" TEXT,
    "status" TEXT NOT NULL DEFAULT 'new',
    "outcome" TEXT,
    "originalOutcome" TEXT,
    "isDiscarded" BOOLEAN NOT NULL DEFAULT false,
    "cutAfter" INTEGER,
    "lane" TEXT,
    "stepCount" INTEGER NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "batchId" TEXT,
    "metaJson" TEXT NOT NULL DEFAULT '{}',
    "assigneeId" TEXT,
    "leaseUntil" DATETIME,
    "submittedAt" DATETIME,
    "reviewerId" TEXT,
    "reviewedAt" DATETIME,
    "reviewLeaseById" TEXT,
    "reviewLeaseUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "copyOfId" TEXT,
    "copyKind" TEXT,
    "overlap" INTEGER NOT NULL DEFAULT 0,
    "isGold" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Trajectory_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Trajectory_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "ImportBatch" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Trajectory_assigneeId_fkey" FOREIGN KEY ("assigneeId") REFERENCES "user" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Trajectory_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "user" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Trajectory_copyOfId_fkey" FOREIGN KEY ("copyOfId") REFERENCES "Trajectory" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Trajectory" ("app", "assigneeId", "batchId", "createdAt", "cutAfter", "fingerprint", "id", "instruction", "isDiscarded", "lane", "leaseUntil", "metaJson", "originalOutcome", "outcome", "projectId", "reviewLeaseById", "reviewLeaseUntil", "reviewedAt", "reviewerId", "source", "sourceRef", "status", "stepCount", "submittedAt", "systemPrompt", "updatedAt", "version") SELECT "app", "assigneeId", "batchId", "createdAt", "cutAfter", "fingerprint", "id", "instruction", "isDiscarded", "lane", "leaseUntil", "metaJson", "originalOutcome", "outcome", "projectId", "reviewLeaseById", "reviewLeaseUntil", "reviewedAt", "reviewerId", "source", "sourceRef", "status", "stepCount", "submittedAt", "systemPrompt", "updatedAt", "version" FROM "Trajectory";
DROP TABLE "Trajectory";
ALTER TABLE "new_Trajectory" RENAME TO "Trajectory";
CREATE INDEX "Trajectory_copyOfId_idx" ON "Trajectory"("copyOfId");
CREATE INDEX "Trajectory_projectId_status_idx" ON "Trajectory"("projectId", "status");
CREATE INDEX "Trajectory_app_idx" ON "Trajectory"("app");
CREATE INDEX "Trajectory_app_id_idx" ON "Trajectory"("app", "id");
CREATE INDEX "Trajectory_instruction_id_idx" ON "Trajectory"("instruction", "id");
CREATE INDEX "Trajectory_stepCount_id_idx" ON "Trajectory"("stepCount", "id");
CREATE INDEX "Trajectory_status_id_idx" ON "Trajectory"("status", "id");
CREATE INDEX "Trajectory_outcome_id_idx" ON "Trajectory"("outcome", "id");
CREATE INDEX "Trajectory_source_id_idx" ON "Trajectory"("source", "id");
CREATE INDEX "Trajectory_createdAt_id_idx" ON "Trajectory"("createdAt", "id");
CREATE INDEX "Trajectory_status_app_id_idx" ON "Trajectory"("status", "app", "id");
CREATE INDEX "Trajectory_status_instruction_id_idx" ON "Trajectory"("status", "instruction", "id");
CREATE INDEX "Trajectory_status_stepCount_id_idx" ON "Trajectory"("status", "stepCount", "id");
CREATE INDEX "Trajectory_status_outcome_id_idx" ON "Trajectory"("status", "outcome", "id");
CREATE INDEX "Trajectory_status_source_id_idx" ON "Trajectory"("status", "source", "id");
CREATE INDEX "Trajectory_status_createdAt_id_idx" ON "Trajectory"("status", "createdAt", "id");
CREATE INDEX "Trajectory_app_instruction_id_idx" ON "Trajectory"("app", "instruction", "id");
CREATE INDEX "Trajectory_app_stepCount_id_idx" ON "Trajectory"("app", "stepCount", "id");
CREATE INDEX "Trajectory_app_status_id_idx" ON "Trajectory"("app", "status", "id");
CREATE INDEX "Trajectory_app_outcome_id_idx" ON "Trajectory"("app", "outcome", "id");
CREATE INDEX "Trajectory_app_source_id_idx" ON "Trajectory"("app", "source", "id");
CREATE INDEX "Trajectory_app_createdAt_id_idx" ON "Trajectory"("app", "createdAt", "id");
CREATE INDEX "Trajectory_assigneeId_id_idx" ON "Trajectory"("assigneeId", "id");
CREATE INDEX "Trajectory_assigneeId_app_id_idx" ON "Trajectory"("assigneeId", "app", "id");
CREATE INDEX "Trajectory_assigneeId_instruction_id_idx" ON "Trajectory"("assigneeId", "instruction", "id");
CREATE INDEX "Trajectory_assigneeId_stepCount_id_idx" ON "Trajectory"("assigneeId", "stepCount", "id");
CREATE INDEX "Trajectory_assigneeId_status_id_idx" ON "Trajectory"("assigneeId", "status", "id");
CREATE INDEX "Trajectory_assigneeId_outcome_id_idx" ON "Trajectory"("assigneeId", "outcome", "id");
CREATE INDEX "Trajectory_assigneeId_source_id_idx" ON "Trajectory"("assigneeId", "source", "id");
CREATE INDEX "Trajectory_assigneeId_createdAt_id_idx" ON "Trajectory"("assigneeId", "createdAt", "id");
CREATE UNIQUE INDEX "Trajectory_projectId_fingerprint_key" ON "Trajectory"("projectId", "fingerprint");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

