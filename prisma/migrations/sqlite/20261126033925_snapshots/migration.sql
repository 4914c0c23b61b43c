-- CreateTable
CREATE TABLE "Snapshot" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "heldOut" BOOLEAN NOT NULL DEFAULT false,
    "filtersJson" TEXT NOT NULL,
    "contentSha256" TEXT NOT NULL,
    "trajectoryCount" INTEGER NOT NULL,
    "stepCount" INTEGER NOT NULL,
    "createdById" TEXT,
    "createdByLabel" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "SnapshotMember" (
    "snapshotId" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "canonicalJson" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,

    PRIMARY KEY ("snapshotId", "trajectoryId"),
    CONSTRAINT "SnapshotMember_snapshotId_fkey" FOREIGN KEY ("snapshotId") REFERENCES "Snapshot" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Snapshot_kind_createdAt_idx" ON "Snapshot"("kind", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Snapshot_kind_name_number_key" ON "Snapshot"("kind", "name", "number");

-- CreateIndex
CREATE INDEX "SnapshotMember_trajectoryId_idx" ON "SnapshotMember"("trajectoryId");

-- CreateIndex
CREATE UNIQUE INDEX "SnapshotMember_snapshotId_position_key" ON "SnapshotMember"("snapshotId", "position");

