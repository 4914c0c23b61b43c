-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN     "failedCalls" INTEGER NOT NULL DEFAULT 0;

