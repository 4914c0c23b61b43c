-- CreateTable
CREATE TABLE "Project" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Trajectory" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sourceRef" TEXT,
    "app" TEXT NOT NULL,
    "instruction" TEXT NOT NULL,
    "systemPrompt" TEXT,
    "status" TEXT NOT NULL DEFAULT 'new',
    "outcome" TEXT,
    "originalOutcome" TEXT,
    "isDiscarded" BOOLEAN NOT NULL DEFAULT false,
    "cutAfter" INTEGER,
    "stepCount" INTEGER NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "batchId" TEXT,
    "metaJson" TEXT NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Trajectory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Step" (
    "id" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "screenshotSha" TEXT NOT NULL,
    "originalJson" TEXT NOT NULL,
    "thoughtState" TEXT NOT NULL DEFAULT '',
    "thoughtNext" TEXT NOT NULL DEFAULT '',
    "thoughtPurpose" TEXT NOT NULL DEFAULT '',
    "thought" TEXT NOT NULL DEFAULT '',
    "clearAction" TEXT NOT NULL DEFAULT '',
    "toolCallJson" TEXT NOT NULL,
    "boxJson" TEXT,
    "candidateBoxJson" TEXT NOT NULL DEFAULT '[]',
    "verdict" TEXT NOT NULL DEFAULT 'unreviewed',
    "version" INTEGER NOT NULL DEFAULT 1,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Step_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Screenshot" (
    "sha256" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,
    "mime" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Screenshot_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "ImportBatch" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "fileSha256" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "trajectories" INTEGER NOT NULL DEFAULT 0,
    "steps" INTEGER NOT NULL DEFAULT 0,
    "duplicates" INTEGER NOT NULL DEFAULT 0,
    "problemsJson" TEXT NOT NULL DEFAULT '[]',
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ImportBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Project_name_key" ON "Project"("name");

-- CreateIndex
CREATE INDEX "Trajectory_projectId_status_idx" ON "Trajectory"("projectId", "status");

-- CreateIndex
CREATE INDEX "Trajectory_app_idx" ON "Trajectory"("app");

-- CreateIndex
CREATE UNIQUE INDEX "Trajectory_projectId_fingerprint_key" ON "Trajectory"("projectId", "fingerprint");

-- CreateIndex
CREATE INDEX "Step_screenshotSha_idx" ON "Step"("screenshotSha");

-- CreateIndex
CREATE UNIQUE INDEX "Step_trajectoryId_index_key" ON "Step"("trajectoryId", "index");

-- AddForeignKey
ALTER TABLE "Trajectory" ADD CONSTRAINT "Trajectory_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trajectory" ADD CONSTRAINT "Trajectory_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "ImportBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Step" ADD CONSTRAINT "Step_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Step" ADD CONSTRAINT "Step_screenshotSha_fkey" FOREIGN KEY ("screenshotSha") REFERENCES "Screenshot"("sha256") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportBatch" ADD CONSTRAINT "ImportBatch_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

