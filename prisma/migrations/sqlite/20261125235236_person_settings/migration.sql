-- CreateTable
CREATE TABLE "person_setting" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "settingsJson" TEXT NOT NULL DEFAULT '{}',
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "person_setting_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

