-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "goldRate" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Trajectory" ADD COLUMN     "copyKind" TEXT,
ADD COLUMN     "copyOfId" TEXT,
ADD COLUMN     "isGold" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "overlap" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Trajectory_copyOfId_idx" ON "Trajectory"("copyOfId");

-- AddForeignKey
ALTER TABLE "Trajectory" ADD CONSTRAINT "Trajectory_copyOfId_fkey" FOREIGN KEY ("copyOfId") REFERENCES "Trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

