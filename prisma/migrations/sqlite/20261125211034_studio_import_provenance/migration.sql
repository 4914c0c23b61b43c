-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ImportStagedStep" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "batchId" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "screenshotSha" TEXT NOT NULL,
    "originalJson" TEXT NOT NULL,
    "thoughtState" TEXT NOT NULL,
    "thoughtNext" TEXT NOT NULL,
    "thoughtPurpose" TEXT NOT NULL,
    "thought" TEXT NOT NULL,
    "clearAction" TEXT NOT NULL,
    "toolCallJson" TEXT NOT NULL,
    "boxJson" TEXT,
    "candidateBoxJson" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "provenanceJson" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1
);
INSERT INTO "new_ImportStagedStep" ("batchId", "boxJson", "candidateBoxJson", "clearAction", "id", "index", "originalJson", "screenshotSha", "thought", "thoughtNext", "thoughtPurpose", "thoughtState", "toolCallJson", "trajectoryId", "verdict") SELECT "batchId", "boxJson", "candidateBoxJson", "clearAction", "id", "index", "originalJson", "screenshotSha", "thought", "thoughtNext", "thoughtPurpose", "thoughtState", "toolCallJson", "trajectoryId", "verdict" FROM "ImportStagedStep";
DROP TABLE "ImportStagedStep";
ALTER TABLE "new_ImportStagedStep" RENAME TO "ImportStagedStep";
CREATE INDEX "ImportStagedStep_batchId_idx" ON "ImportStagedStep"("batchId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

