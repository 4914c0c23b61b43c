-- CreateTable
CREATE TABLE "ImportJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "state" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "project" TEXT NOT NULL,
    "createdById" TEXT,
    "createdByLabel" TEXT NOT NULL,
    "runnerId" TEXT NOT NULL,
    "heartbeatAt" DATETIME NOT NULL,
    "phase" TEXT NOT NULL DEFAULT 'checking',
    "lines" INTEGER NOT NULL DEFAULT 0,
    "trajectories" INTEGER NOT NULL DEFAULT 0,
    "steps" INTEGER NOT NULL DEFAULT 0,
    "duplicates" INTEGER NOT NULL DEFAULT 0,
    "screenshots" INTEGER NOT NULL DEFAULT 0,
    "batchId" TEXT,
    "problemsJson" TEXT NOT NULL DEFAULT '[]',
    "problemCount" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "ImportJob_state_idx" ON "ImportJob"("state");

-- CreateIndex
CREATE INDEX "ImportJob_startedAt_idx" ON "ImportJob"("startedAt");

