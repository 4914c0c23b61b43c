// Staging an import: the one pass over the file, writing each new trajectory's rows into the staging
// tables in short chunks while no problem has been found.
import { createHash } from "node:crypto";
import path from "node:path";
import type { BuiltTrajectory } from "@/lib/domain/import-formats";
import type { OtherProjectCopies } from "@/lib/domain/imports";
import { type Db, type BulkWriter, type StagedChunk, TaskPool, timeOrderedId, originalColumn } from "../db";
import { appError } from "../errors";
import { READER_LIMITS, type ImportedImage } from "./image";
import { ScreenshotReader } from "./reader";
import type { ImportOptions, ImportProgress } from "./options";
import { ProblemList } from "./problem-list";
import { readTrajectories, type KnownImage } from "./read";
import { stepAnnotationColumns } from "../annotate";

const PROGRESS_EVERY = 100;
/**
 * Staged per write (one driver transaction): at most this many trajectories or steps, so a save never
 * waits long behind one (a chunk of 256 steps takes a few milliseconds through the driver).
 */
const STAGE_TRAJECTORIES = 40;
const STAGE_STEPS = 256;
/** Screenshots being written into the store at once (each holds its bytes in memory until written). */
const STORE_CONCURRENCY = 8;
/** How often a running import renews its batch's heartbeat (far below STALE_IMPORT_MS). */
const HEARTBEAT_MS = 5_000;

/**
 * The one pass over the file: check each line, store its new screenshots and stage its trajectory
 * (while no problem has been found), renewing the batch's heartbeat as it goes.
 */
export async function stage(prisma: Db, writer: BulkWriter, opts: ImportOptions, size: number, projectId: string, batchId: string) {
  const fileLabel = opts.displayName ?? path.basename(opts.file);
  const known = new Set<string>();
  /** Content already in another project: fingerprint -> that project's id (the first one found). */
  const elsewhere = new Map<string, string>();
  for (const t of await prisma.trajectory.findMany({ select: { fingerprint: true, projectId: true } })) {
    if (t.projectId === projectId) known.add(t.fingerprint);
    else if (!elsewhere.has(t.fingerprint)) elsewhere.set(t.fingerprint, t.projectId);
  }
  const mode = opts.onOtherProjects ?? "import";
  /** Trajectories of this file already in other projects, per project id. */
  const copies = new Map<string, number>();
  // Asked: nothing more is staged (the import ends without writing), but every line is still read and counted.
  const isAsking = () => mode === "ask" && copies.size > 0;
  const images = new Map<string, KnownImage>();
  const problems = new ProblemList();
  const store = new TaskPool(STORE_CONCURRENCY);
  const fileHash = createHash("sha256");
  /** Screenshots staged (of new trajectories). */
  const shas = new Set<string>();
  /** Every distinct screenshot of the file, new trajectories or not (the count the import reports). */
  const distinct = new Set<string>();
  let lines = 0;
  let checked = 0;
  let checkedSteps = 0;
  let staged = 0;
  let stagedSteps = 0;
  let duplicates = 0;
  let chunk: StagedChunk = { screenshots: [], trajectories: [], steps: [] };
  let lastBeat = Date.now();
  const flush = async () => {
    if (chunk.trajectories.length === 0 && chunk.screenshots.length === 0) return;
    const full = chunk;
    chunk = { screenshots: [], trajectories: [], steps: [] };
    // No transaction spans chunks: staged rows are invisible whatever happens, and a batch that stops
    // half-way is swept whole. Each chunk is one short transaction, so a save waits at most for one.
    await writer.write(full);
    if (Date.now() - lastBeat < HEARTBEAT_MS) return;
    lastBeat = Date.now();
    const alive = await prisma.importBatch.updateMany({ where: { id: batchId, status: "running" }, data: { heartbeatAt: new Date() } });
    // Swept by another process that thought this import dead: stop rather than write on.
    if (alive.count !== 1) throw appError("conflict", "error.importStopped", { file: fileLabel });
  };
  const report = (phase: ImportProgress["phase"]) =>
    opts.onProgress?.(
      problems.count > 0
        ? { phase: "checking", lines, trajectories: checked, steps: checkedSteps }
        : { phase, lines, trajectories: staged, steps: stagedSteps },
    );
  const reader = new ScreenshotReader(READER_LIMITS);
  try {
    for await (const r of readTrajectories(opts, size, fileHash, images, reader, store, () => problems.count === 0 && !isAsking())) {
      lines += 1;
      problems.add(r.problems);
      if (r.checked) {
        checked += 1;
        checkedSteps += r.checked.trajectory.steps.length;
      }
      if (problems.count === 0 && r.checked) {
        const { trajectory: t, images: imgs, fingerprint: fp } = r.checked;
        for (const img of imgs) distinct.add(img.sha256);
        const other = known.has(fp) ? undefined : elsewhere.get(fp);
        if (other !== undefined) copies.set(other, (copies.get(other) ?? 0) + 1);
        if (known.has(fp)) duplicates += 1;
        else if (other !== undefined && mode !== "import") known.add(fp);
        else if (isAsking()) known.add(fp);
        else {
          known.add(fp);
          addRows(chunk, batchId, t, imgs, fp, shas);
          staged += 1;
          stagedSteps += t.steps.length;
          if (chunk.trajectories.length >= STAGE_TRAJECTORIES || chunk.steps.length >= STAGE_STEPS) await flush();
        }
      }
      if (lines % PROGRESS_EVERY === 0) report("writing");
    }
    if (problems.count === 0 && !isAsking()) {
      await flush();
      await store.drain();
    } else await store.drain().catch(() => {});
  } finally {
    await reader.close();
  }
  report("writing");
  const names = new Map(
    (await prisma.project.findMany({ where: { id: { in: [...copies.keys()] } }, select: { id: true, name: true } })).map((p) => [
      p.id,
      p.name,
    ]),
  );
  const otherProjects: OtherProjectCopies = [...copies]
    .map(([id, count]) => ({ project: names.get(id) ?? id, count }))
    .sort((a, b) => b.count - a.count || a.project.localeCompare(b.project));
  return {
    otherProjects,
    lines,
    checked,
    checkedSteps,
    staged,
    steps: stagedSteps,
    duplicates,
    screenshots: distinct.size,
    problems,
    fileSha256: fileHash.digest("hex"),
  };
}

/** The staged rows of one new trajectory (and of its screenshots not staged yet). */
function addRows(chunk: StagedChunk, batchId: string, t: BuiltTrajectory, imgs: ImportedImage[], fp: string, shas: Set<string>) {
  const trajectoryId = timeOrderedId();
  chunk.trajectories.push({
    id: trajectoryId,
    batchId,
    fingerprint: fp,
    source: t.source,
    sourceRef: t.sourceRef,
    app: t.app,
    instruction: t.instruction,
    systemPrompt: t.systemPrompt ?? null,
    status: t.annotated?.status ?? "new",
    outcome: t.annotated?.outcome ?? null,
    originalOutcome: t.originalOutcome,
    isDiscarded: t.annotated?.isDiscarded ?? false,
    cutAfter: t.annotated?.cutAfter ?? null,
    stepCount: t.steps.length,
    metaJson: JSON.stringify(t.meta),
  });
  for (const [i, s] of t.steps.entries()) {
    const img = imgs[i]!;
    if (!shas.has(img.sha256)) {
      shas.add(img.sha256);
      chunk.screenshots.push({
        batchId,
        sha256: img.sha256,
        width: img.width,
        height: img.height,
        bytes: img.bytes,
        mime: img.mime,
        dhash: img.dhash,
      });
    }
    chunk.steps.push({
      id: timeOrderedId(),
      batchId,
      trajectoryId,
      index: s.index,
      screenshotSha: img.sha256,
      originalJson: originalColumn(s.original, s.elements),
      ...stepAnnotationColumns(s),
      candidateBoxJson: JSON.stringify(s.candidateBoxes),
      // A studio-format step keeps who wrote each field and its version, so a moved step is still a person's work.
      provenanceJson: s.provenance ? JSON.stringify(s.provenance) : null,
      version: s.version ?? 1,
    });
  }
}
