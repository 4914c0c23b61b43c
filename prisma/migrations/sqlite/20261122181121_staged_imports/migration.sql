-- AlterTable
ALTER TABLE "ImportBatch" ADD COLUMN "heartbeatAt" DATETIME;

-- CreateTable
CREATE TABLE "ImportStagedTrajectory" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "batchId" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sourceRef" TEXT,
    "app" TEXT NOT NULL,
    "instruction" TEXT NOT NULL,
    "systemPrompt" TEXT,
    "status" TEXT NOT NULL,
    "outcome" TEXT,
    "originalOutcome" TEXT,
    "isDiscarded" BOOLEAN NOT NULL,
    "cutAfter" INTEGER,
    "stepCount" INTEGER NOT NULL,
    "metaJson" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "ImportStagedStep" (
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
    "verdict" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "ImportStagedScreenshot" (
    "batchId" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,
    "mime" TEXT NOT NULL,

    PRIMARY KEY ("batchId", "sha256")
);

-- CreateIndex
CREATE INDEX "ImportStagedTrajectory_batchId_idx" ON "ImportStagedTrajectory"("batchId");

-- CreateIndex
CREATE INDEX "ImportStagedStep_batchId_idx" ON "ImportStagedStep"("batchId");

