-- CreateIndex
CREATE INDEX "Trajectory_app_id_idx" ON "Trajectory"("app", "id");

-- CreateIndex
CREATE INDEX "Trajectory_instruction_id_idx" ON "Trajectory"("instruction", "id");

-- CreateIndex
CREATE INDEX "Trajectory_stepCount_id_idx" ON "Trajectory"("stepCount", "id");

-- CreateIndex
CREATE INDEX "Trajectory_status_id_idx" ON "Trajectory"("status", "id");

-- CreateIndex
CREATE INDEX "Trajectory_outcome_id_idx" ON "Trajectory"("outcome", "id");

-- CreateIndex
CREATE INDEX "Trajectory_source_id_idx" ON "Trajectory"("source", "id");

-- CreateIndex
CREATE INDEX "Trajectory_createdAt_id_idx" ON "Trajectory"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Trajectory_app_status_idx" ON "Trajectory"("app", "status");

-- CreateIndex
CREATE INDEX "Step_verdict_idx" ON "Step"("verdict");

