-- CreateTable
CREATE TABLE "EvalEndpoint" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "apiKey" TEXT,
    "coords" TEXT NOT NULL DEFAULT 'qwen25-abs',
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "timeoutMs" INTEGER NOT NULL DEFAULT 60000,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "EvalRun" (
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
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "EvalStep" (
    "runId" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "stepIndex" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "app" TEXT NOT NULL,
    "gtAction" TEXT NOT NULL,
    "predictedAction" TEXT,
    "response" TEXT NOT NULL,
    "extractMatch" BOOLEAN NOT NULL,
    "typeMatch" BOOLEAN NOT NULL,
    "hit" BOOLEAN,
    "failure" TEXT,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("runId", "trajectoryId", "stepIndex")
);

-- CreateIndex
CREATE UNIQUE INDEX "EvalEndpoint_name_key" ON "EvalEndpoint"("name");

-- CreateIndex
CREATE INDEX "EvalRun_state_idx" ON "EvalRun"("state");

-- CreateIndex
CREATE INDEX "EvalRun_snapshotId_idx" ON "EvalRun"("snapshotId");

-- CreateIndex
CREATE INDEX "EvalStep_runId_position_idx" ON "EvalStep"("runId", "position");

