-- AlterTable
ALTER TABLE "Project" ADD COLUMN "fastLaneAfter" TEXT;

-- AlterTable
ALTER TABLE "Trajectory" ADD COLUMN "lane" TEXT;

