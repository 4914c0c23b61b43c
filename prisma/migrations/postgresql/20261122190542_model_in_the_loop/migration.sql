-- AlterTable
ALTER TABLE "Step" ADD COLUMN     "provenanceJson" TEXT;

-- CreateTable
CREATE TABLE "ModelSetting" (
    "id" TEXT NOT NULL,
    "baseUrl" TEXT,
    "model" TEXT,
    "apiKey" TEXT,
    "concurrency" INTEGER,
    "timeoutMs" INTEGER,
    "updatedById" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ModelSetting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StepSuggestion" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acceptedAt" TIMESTAMP(3),
    "acceptedById" TEXT,

    CONSTRAINT "StepSuggestion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModelJob" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "selectionJson" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "model" TEXT NOT NULL DEFAULT '',
    "createdById" TEXT,
    "createdByLabel" TEXT NOT NULL,
    "runnerId" TEXT,
    "heartbeatAt" TIMESTAMP(3),
    "progressTotal" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ModelJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModelJobItem" (
    "jobId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "detail" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ModelJobItem_pkey" PRIMARY KEY ("jobId","itemId")
);

-- CreateTable
CREATE TABLE "JudgeVerdict" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JudgeVerdict_pkey" PRIMARY KEY ("id")
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

