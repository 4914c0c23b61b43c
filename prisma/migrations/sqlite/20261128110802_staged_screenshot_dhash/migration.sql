-- AlterTable
ALTER TABLE "ImportStagedScreenshot" ADD COLUMN "dhash" TEXT;

