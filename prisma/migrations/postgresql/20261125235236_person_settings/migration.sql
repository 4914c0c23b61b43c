-- CreateTable
CREATE TABLE "person_setting" (
    "userId" TEXT NOT NULL,
    "settingsJson" TEXT NOT NULL DEFAULT '{}',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "person_setting_pkey" PRIMARY KEY ("userId")
);

-- AddForeignKey
ALTER TABLE "person_setting" ADD CONSTRAINT "person_setting_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

