-- CreateTable
CREATE TABLE "SignInLimit" (
    "email" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "windowStart" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SignInLimit_pkey" PRIMARY KEY ("email")
);

-- CreateTable
CREATE TABLE "ExportJob" (
    "id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "outDir" TEXT NOT NULL,
    "filtersJson" TEXT NOT NULL,
    "createdById" TEXT,
    "createdByLabel" TEXT NOT NULL,
    "runnerId" TEXT NOT NULL,
    "heartbeatAt" TIMESTAMP(3) NOT NULL,
    "progressDone" INTEGER NOT NULL DEFAULT 0,
    "progressTotal" INTEGER NOT NULL DEFAULT 0,
    "countsJson" TEXT,
    "error" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ExportJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SignInLimit_windowStart_idx" ON "SignInLimit"("windowStart");

-- CreateIndex
CREATE INDEX "ExportJob_state_idx" ON "ExportJob"("state");

-- CreateIndex
CREATE INDEX "ExportJob_startedAt_idx" ON "ExportJob"("startedAt");

