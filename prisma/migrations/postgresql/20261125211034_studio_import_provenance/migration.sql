-- AlterTable
ALTER TABLE "ImportStagedStep" ADD COLUMN     "provenanceJson" TEXT,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

