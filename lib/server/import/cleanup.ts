// Removing what an import staged: after it ends, when it fails, and for imports that stopped without finishing.
import { problemOf } from "@/lib/domain/problems";
import { db as defaultDb, type Db, Prisma } from "../db";
import { MAX_PROBLEM_CHARS, STALE_IMPORT_MS } from "./options";

const DELETE_CHUNK = 2000;

/** Delete a batch's staged rows, a few thousand per statement so no write waits long behind it. */
export async function deleteStaged(prisma: Db, batchId: string): Promise<void> {
  const deletes = [
    () =>
      prisma.$executeRaw`DELETE FROM "ImportStagedStep" WHERE "id" IN (SELECT "id" FROM "ImportStagedStep" WHERE "batchId" = ${batchId} LIMIT ${Prisma.raw(String(DELETE_CHUNK))})`,
    () =>
      prisma.$executeRaw`DELETE FROM "ImportStagedTrajectory" WHERE "id" IN (SELECT "id" FROM "ImportStagedTrajectory" WHERE "batchId" = ${batchId} LIMIT ${Prisma.raw(String(DELETE_CHUNK))})`,
    () =>
      prisma.$executeRaw`DELETE FROM "ImportStagedScreenshot" WHERE "batchId" = ${batchId} AND "sha256" IN (SELECT "sha256" FROM "ImportStagedScreenshot" WHERE "batchId" = ${batchId} LIMIT ${Prisma.raw(String(DELETE_CHUNK))})`,
  ];
  for (const remove of deletes) while ((await remove()) >= DELETE_CHUNK);
}

export async function failBatch(prisma: Db, batchId: string, error: unknown): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_PROBLEM_CHARS);
  await prisma.importBatch.updateMany({
    where: { id: batchId, status: "running" },
    data: {
      status: "failed",
      finishedAt: new Date(),
      problemsJson: JSON.stringify([{ file: "", ...problemOf("other", { detail: message }) }]),
    },
  });
  await deleteStaged(prisma, batchId);
}

/**
 * Imports that stopped without finishing (the process was killed, the machine went down): batches
 * still "running" whose heartbeat is older than `staleMs` are marked failed and their staged rows
 * deleted, as are staged rows of any batch that is not running. Runs before every import.
 */
export async function sweepAbandonedImports(prisma: Db = defaultDb(), staleMs = STALE_IMPORT_MS): Promise<{ failed: number }> {
  const cutoff = new Date(Date.now() - staleMs);
  const stale = await prisma.importBatch.findMany({
    where: { status: "running", OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: cutoff } }] },
    select: { id: true },
  });
  for (const b of stale) {
    await prisma.importBatch.updateMany({
      where: { id: b.id, status: "running" },
      data: {
        status: "failed",
        finishedAt: new Date(),
        problemsJson: JSON.stringify([{ file: "", ...problemOf("interrupted") }]),
      },
    });
  }
  const leftovers = new Set<string>();
  for (const model of [prisma.importStagedTrajectory, prisma.importStagedStep, prisma.importStagedScreenshot] as unknown as {
    findMany(a: object): Promise<{ batchId: string }[]>;
  }[]) {
    for (const r of await model.findMany({ distinct: ["batchId"], select: { batchId: true } })) leftovers.add(r.batchId);
  }
  const running = new Set(
    (await prisma.importBatch.findMany({ where: { id: { in: [...leftovers] }, status: "running" }, select: { id: true } })).map(
      (b) => b.id,
    ),
  );
  for (const id of leftovers) if (!running.has(id)) await deleteStaged(prisma, id);
  return { failed: stale.length };
}
