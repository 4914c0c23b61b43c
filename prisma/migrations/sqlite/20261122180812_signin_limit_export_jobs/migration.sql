-- CreateTable
CREATE TABLE "SignInLimit" (
    "email" TEXT NOT NULL PRIMARY KEY,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "windowStart" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ExportJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "state" TEXT NOT NULL,
    "outDir" TEXT NOT NULL,
    "filtersJson" TEXT NOT NULL,
    "createdById" TEXT,
    "createdByLabel" TEXT NOT NULL,
    "runnerId" TEXT NOT NULL,
    "heartbeatAt" DATETIME NOT NULL,
    "progressDone" INTEGER NOT NULL DEFAULT 0,
    "progressTotal" INTEGER NOT NULL DEFAULT 0,
    "countsJson" TEXT,
    "error" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "SignInLimit_windowStart_idx" ON "SignInLimit"("windowStart");

-- CreateIndex
CREATE INDEX "ExportJob_state_idx" ON "ExportJob"("state");

-- CreateIndex
CREATE INDEX "ExportJob_startedAt_idx" ON "ExportJob"("startedAt");

