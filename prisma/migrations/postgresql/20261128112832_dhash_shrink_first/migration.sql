-- The dHash's definition changed (dHashOf in lib/domain/near-duplicates.ts: the screenshot is shrunk to 9x8 in its
-- own colours, then made grey, instead of greyed at full size first). A hash made the older way may differ from the
-- new one by a few bits, so stored hashes are cleared: the lazy pass (storeScreenshotHashes in
-- lib/server/near-duplicates.ts) makes each again from the stored file when grouping first needs it.
UPDATE "Screenshot" SET "dhash" = NULL WHERE "dhash" IS NOT NULL;
