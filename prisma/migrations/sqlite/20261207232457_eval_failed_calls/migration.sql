-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_EvalRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "snapshotId" TEXT NOT NULL,
    "setName" TEXT NOT NULL,
    "setVersion" INTEGER NOT NULL,
    "endpointId" TEXT NOT NULL,
    "endpointName" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "coords" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "maxPixels" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "runnerId" TEXT,
    "heartbeatAt" DATETIME,
    "finishedAt" DATETIME,
    "error" TEXT,
    "createdById" TEXT,
    "createdByLabel" TEXT NOT NULL,
    "progressTotal" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "figuresJson" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "failedCalls" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_EvalRun" ("completionTokens", "coords", "createdById", "createdByLabel", "endpointId", "endpointName", "error", "figuresJson", "finishedAt", "heartbeatAt", "id", "maxPixels", "model", "progressTotal", "promptTokens", "rule", "runnerId", "setName", "setVersion", "snapshotId", "startedAt", "state") SELECT "completionTokens", "coords", "createdById", "createdByLabel", "endpointId", "endpointName", "error", "figuresJson", "finishedAt", "heartbeatAt", "id", "maxPixels", "model", "progressTotal", "promptTokens", "rule", "runnerId", "setName", "setVersion", "snapshotId", "startedAt", "state" FROM "EvalRun";
DROP TABLE "EvalRun";
ALTER TABLE "new_EvalRun" RENAME TO "EvalRun";
CREATE INDEX "EvalRun_state_idx" ON "EvalRun"("state");
CREATE INDEX "EvalRun_snapshotId_idx" ON "EvalRun"("snapshotId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

