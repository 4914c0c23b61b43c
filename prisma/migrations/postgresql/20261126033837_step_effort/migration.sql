-- CreateTable
CREATE TABLE "step_effort" (
    "userId" TEXT NOT NULL,
    "stepId" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "activeMs" INTEGER NOT NULL DEFAULT 0,
    "reports" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "step_effort_pkey" PRIMARY KEY ("userId","stepId")
);

-- CreateIndex
CREATE INDEX "step_effort_trajectoryId_idx" ON "step_effort"("trajectoryId");

