import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { problemOf } from "@/lib/domain/problems";
import { db as defaultDb, openBulkWriter } from "../db";
import { appError } from "../errors";
import { DEFAULT_PROJECT, type ImportOptions, type ImportResult } from "./options";
import { stage } from "./stage";
import { commitBatch } from "./commit";
import { deleteStaged, failBatch, sweepAbandonedImports } from "./cleanup";

// The import's parts live beside this file (options, lines, read, stage, commit, cleanup); callers keep
// importing them from here. None of those modules imports this file.
export {
  DEFAULT_PROJECT,
  MAX_LINE_BYTES,
  MAX_PROBLEM_CHARS,
  MAX_PROBLEMS,
  STALE_IMPORT_MS,
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
} from "./options";
export { nestedDeeperThan } from "./lines";
export { sweepAbandonedImports } from "./cleanup";

/**
 * Import a JSONL file as one all-or-nothing batch, in one pass over the file. Every line is checked
 * (JSON, schema, actions, screenshots, coordinates on screen) and, while no problem has been found,
 * its trajectory staged: written in short chunks through the database driver into staging tables the
 * studio never reads (annotators' saves wait at most one chunk). Any problem stops the staging; the
 * import goes on checking, then answers with the problems (the first MAX_PROBLEMS, and their exact
 * count) and removes what it staged and its batch, leaving the database as it was. Otherwise one last
 * transaction makes everything visible at once: readers see the count jump from before to after, and
 * a failure (or a kill) leaves no trajectory, step or screenshot row behind. Ones already present
 * (same fingerprint in the project) are counted as duplicates and skipped. Only the bytes the file
 * held when the import began are read; a file changed before the end is refused.
 */
export async function importFile(opts: ImportOptions): Promise<ImportResult> {
  const prisma = opts.db ?? defaultDb();
  const fileLabel = opts.displayName ?? path.basename(opts.file);
  const onOtherProjects = opts.onOtherProjects ?? "import";
  if (!existsSync(opts.file)) throw appError("not_found", "error.importFileMissing", { file: fileLabel });
  const before = await stat(opts.file);

  await sweepAbandonedImports(prisma);
  const projectName = opts.project ?? DEFAULT_PROJECT;
  let project = await prisma.project.findUnique({ where: { name: projectName } });
  let createdProject = false;
  if (!project) {
    project = await prisma.project.upsert({ where: { name: projectName }, create: { name: projectName }, update: {} });
    createdProject = true;
  }
  const batch = await prisma.importBatch.create({
    data: {
      projectId: project.id,
      format: opts.format,
      fileName: fileLabel,
      // Known at the end of the pass (the file is hashed as it is read).
      fileSha256: "",
      status: "running",
      heartbeatAt: new Date(),
      createdById: opts.actor?.id ?? null,
    },
  });
  const writer = await openBulkWriter(prisma);
  try {
    const staged = await stage(prisma, writer, opts, before.size, project.id, batch.id);
    if (staged.problems.count > 0 || staged.lines === 0) {
      if (staged.lines === 0) staged.problems.add([{ file: fileLabel, ...problemOf("emptyFile") }]);
      // Nothing happened: no batch, no staged row (and no project, if this import made it).
      await deleteStaged(prisma, batch.id);
      await prisma.importBatch.deleteMany({ where: { id: batch.id } });
      if (createdProject) {
        await prisma.project.deleteMany({ where: { id: project.id, trajectories: { none: {} }, batches: { none: {} } } });
      }
      const { problems } = staged;
      return { ok: false, problems: problems.kept, problemCount: problems.count, trajectories: staged.checked, steps: staged.checkedSteps };
    }
    if (onOtherProjects === "ask" && staged.otherProjects.length > 0) {
      // The person decides first: nothing of this import stays (as with problems).
      await deleteStaged(prisma, batch.id);
      await prisma.importBatch.deleteMany({ where: { id: batch.id } });
      if (createdProject) {
        await prisma.project.deleteMany({ where: { id: project.id, trajectories: { none: {} }, batches: { none: {} } } });
      }
      return {
        ok: false,
        problems: [],
        problemCount: 0,
        trajectories: staged.checked,
        steps: staged.checkedSteps,
        asked: staged.otherProjects,
      };
    }
    const after = await stat(opts.file);
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
      throw appError("conflict", "error.importFileChanged", { file: fileLabel });
    }
    await prisma.importBatch.update({ where: { id: batch.id }, data: { fileSha256: staged.fileSha256 } });
    opts.onProgress?.({ phase: "committing", lines: staged.lines, trajectories: staged.staged, steps: staged.steps });
    const result = await commitBatch(prisma, opts, batch.id, project.id, staged.duplicates);
    opts.onProgress?.({ phase: "committing", lines: staged.lines, trajectories: result.trajectories, steps: result.steps });
    await deleteStaged(prisma, batch.id);
    return {
      ok: true,
      project: projectName,
      screenshots: staged.screenshots,
      batchId: batch.id,
      otherProjects: staged.otherProjects,
      onOtherProjects,
      ...result,
    };
  } catch (e) {
    await failBatch(prisma, batch.id, e).catch(() => {});
    throw e;
  } finally {
    await writer.close();
  }
}
