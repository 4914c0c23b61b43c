-- AlterTable
ALTER TABLE "Trajectory" ADD COLUMN "reviewLeaseById" TEXT;
ALTER TABLE "Trajectory" ADD COLUMN "reviewLeaseUntil" DATETIME;

-- CreateTable
CREATE TABLE "CommentReply" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "commentId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CommentReply_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "Comment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CommentReply_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewDecision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "trajectoryId" TEXT NOT NULL,
    "reviewerId" TEXT,
    "reviewerLabel" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "reason" TEXT,
    "version" INTEGER NOT NULL,
    "snapshotJson" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReviewDecision_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "CommentReply_commentId_idx" ON "CommentReply"("commentId");

-- CreateIndex
CREATE INDEX "ReviewDecision_trajectoryId_createdAt_idx" ON "ReviewDecision"("trajectoryId", "createdAt");

