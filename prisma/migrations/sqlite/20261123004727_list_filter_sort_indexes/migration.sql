-- DropIndex
DROP INDEX "Trajectory_assigneeId_status_idx";

-- DropIndex
DROP INDEX "Trajectory_app_status_idx";

-- CreateIndex
CREATE INDEX "Trajectory_status_app_id_idx" ON "Trajectory"("status", "app", "id");

-- CreateIndex
CREATE INDEX "Trajectory_status_instruction_id_idx" ON "Trajectory"("status", "instruction", "id");

-- CreateIndex
CREATE INDEX "Trajectory_status_stepCount_id_idx" ON "Trajectory"("status", "stepCount", "id");

-- CreateIndex
CREATE INDEX "Trajectory_status_outcome_id_idx" ON "Trajectory"("status", "outcome", "id");

-- CreateIndex
CREATE INDEX "Trajectory_status_source_id_idx" ON "Trajectory"("status", "source", "id");

-- CreateIndex
CREATE INDEX "Trajectory_status_createdAt_id_idx" ON "Trajectory"("status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Trajectory_app_instruction_id_idx" ON "Trajectory"("app", "instruction", "id");

-- CreateIndex
CREATE INDEX "Trajectory_app_stepCount_id_idx" ON "Trajectory"("app", "stepCount", "id");

-- CreateIndex
CREATE INDEX "Trajectory_app_status_id_idx" ON "Trajectory"("app", "status", "id");

-- CreateIndex
CREATE INDEX "Trajectory_app_outcome_id_idx" ON "Trajectory"("app", "outcome", "id");

-- CreateIndex
CREATE INDEX "Trajectory_app_source_id_idx" ON "Trajectory"("app", "source", "id");

-- CreateIndex
CREATE INDEX "Trajectory_app_createdAt_id_idx" ON "Trajectory"("app", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Trajectory_assigneeId_app_id_idx" ON "Trajectory"("assigneeId", "app", "id");

-- CreateIndex
CREATE INDEX "Trajectory_assigneeId_instruction_id_idx" ON "Trajectory"("assigneeId", "instruction", "id");

-- CreateIndex
CREATE INDEX "Trajectory_assigneeId_stepCount_id_idx" ON "Trajectory"("assigneeId", "stepCount", "id");

-- CreateIndex
CREATE INDEX "Trajectory_assigneeId_status_id_idx" ON "Trajectory"("assigneeId", "status", "id");

-- CreateIndex
CREATE INDEX "Trajectory_assigneeId_outcome_id_idx" ON "Trajectory"("assigneeId", "outcome", "id");

-- CreateIndex
CREATE INDEX "Trajectory_assigneeId_source_id_idx" ON "Trajectory"("assigneeId", "source", "id");

-- CreateIndex
CREATE INDEX "Trajectory_assigneeId_createdAt_id_idx" ON "Trajectory"("assigneeId", "createdAt", "id");

