-- CreateIndex
CREATE INDEX "Trajectory_assigneeId_id_idx" ON "Trajectory"("assigneeId", "id");

