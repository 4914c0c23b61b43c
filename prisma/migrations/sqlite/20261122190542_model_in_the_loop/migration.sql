-- AlterTable
ALTER TABLE "Step" ADD COLUMN "provenanceJson" TEXT;

-- CreateTable
CREATE TABLE "ModelSetting" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "baseUrl" TEXT,
    "model" TEXT,
    "apiKey" TEXT,
    "concurrency" INTEGER,
    "timeoutMs" INTEGER,
    "updatedById" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "StepSuggestion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "stepId" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "outputJson" TEXT NOT NULL,
    "rawText" TEXT NOT NULL,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "jobId" TEXT,
    "requestedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acceptedAt" DATETIME,
    "acceptedById" TEXT
);

-- CreateTable
CREATE TABLE "ModelJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "selectionJson" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "model" TEXT NOT NULL DEFAULT '',
    "createdById" TEXT,
    "createdByLabel" TEXT NOT NULL,
    "runnerId" TEXT,
    "heartbeatAt" DATETIME,
    "progressTotal" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "ModelJobItem" (
    "jobId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "detail" TEXT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("jobId", "itemId")
);

-- CreateTable
CREATE TABLE "JudgeVerdict" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "trajectoryId" TEXT NOT NULL,
    "jobId" TEXT,
    "prompt" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "isConsistent" BOOLEAN NOT NULL,
    "reason" TEXT NOT NULL,
    "rawText" TEXT NOT NULL,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "StepSuggestion_stepId_createdAt_idx" ON "StepSuggestion"("stepId", "createdAt");

-- CreateIndex
CREATE INDEX "StepSuggestion_jobId_idx" ON "StepSuggestion"("jobId");

-- CreateIndex
CREATE INDEX "ModelJob_state_idx" ON "ModelJob"("state");

-- CreateIndex
CREATE INDEX "ModelJobItem_jobId_result_idx" ON "ModelJobItem"("jobId", "result");

-- CreateIndex
CREATE INDEX "JudgeVerdict_trajectoryId_createdAt_idx" ON "JudgeVerdict"("trajectoryId", "createdAt");

-- CreateIndex
CREATE INDEX "JudgeVerdict_jobId_idx" ON "JudgeVerdict"("jobId");

