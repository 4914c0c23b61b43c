-- CreateTable
CREATE TABLE "EvalEndpoint" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "apiKey" TEXT,
    "coords" TEXT NOT NULL DEFAULT 'qwen25-abs',
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "timeoutMs" INTEGER NOT NULL DEFAULT 60000,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EvalEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvalRun" (
    "id" TEXT NOT NULL,
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
    "heartbeatAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "error" TEXT,
    "createdById" TEXT,
    "createdByLabel" TEXT NOT NULL,
    "progressTotal" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "figuresJson" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EvalRun_pkey" PRIMARY KEY ("id")
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

    CONSTRAINT "EvalStep_pkey" PRIMARY KEY ("runId","trajectoryId","stepIndex")
);

-- CreateIndex
CREATE UNIQUE INDEX "EvalEndpoint_name_key" ON "EvalEndpoint"("name");

-- CreateIndex
CREATE INDEX "EvalRun_state_idx" ON "EvalRun"("state");

-- CreateIndex
CREATE INDEX "EvalRun_snapshotId_idx" ON "EvalRun"("snapshotId");

-- CreateIndex
CREATE INDEX "EvalStep_runId_position_idx" ON "EvalStep"("runId", "position");

