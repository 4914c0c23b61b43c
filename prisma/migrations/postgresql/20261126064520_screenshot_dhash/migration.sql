-- AlterTable
ALTER TABLE "Screenshot" ADD COLUMN     "dhash" TEXT;

