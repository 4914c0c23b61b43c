-- CreateTable
CREATE TABLE "ImportJob" (
    "id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "project" TEXT NOT NULL,
    "createdById" TEXT,
    "createdByLabel" TEXT NOT NULL,
    "runnerId" TEXT NOT NULL,
    "heartbeatAt" TIMESTAMP(3) NOT NULL,
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
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ImportJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ImportJob_state_idx" ON "ImportJob"("state");

-- CreateIndex
CREATE INDEX "ImportJob_startedAt_idx" ON "ImportJob"("startedAt");

