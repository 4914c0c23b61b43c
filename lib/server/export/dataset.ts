import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { mobileR1Row, uiS1Row } from "@/lib/domain/source-rows";
import type { CanonicalTrajectory } from "@/lib/domain/trajectory";
import type { TaskStatus } from "@/lib/domain/status";
import { db as defaultDb, type Db } from "../db";
import { EXPORT_STATUS_OPTIONS, exportedStatuses } from "@/lib/domain/exports";
import { CLI_ACTOR, recordAudit, type AuditActor } from "../people";
import { alternativesOf } from "../review";
import { appError } from "../errors";
import { openStepReader, type ExportStepRow, type StepReader } from "./read";
import { LinkWorker, NOT_STORED, PLACED } from "./links";
import { screenshotExt, screenshotKey, objectStore } from "../object-store";
import { splitOf, type SplitSpec } from "./split";
import { latestJudgeVerdicts } from "../model";
import { heldOutSets } from "./held-out";
import {
  canonicalHead,
  canonicalStep,
  sourceImageName,
  trajectoryPages,
  type TrajectoryPage as Page,
  type TrajectoryWhere,
} from "./canonical";
import { FileList, HashedWriter, writeManifest } from "./files";
import { LinkQueue } from "./link-queue";
import { withProcessLabels } from "@/lib/domain/process-label";
import { countTrajectory, manifestOf, newTally, type ExportSummary, type Tally } from "./manifest";

// The canonical line's shaping lives in ./canonical (it imports nothing from here); snapshots and
// releases read it through this module.
export { type ExportSummary } from "./manifest";
export { canonicalHead, canonicalStep, sourceImageName, trajectoryPages, type CanonicalSource } from "./canonical";

/** Which work an export takes; the list lives once, in lib/domain/exports. */
export const EXPORT_STATUSES = EXPORT_STATUS_OPTIONS;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export type ExportOptions = {
  outDir: string;
  status?: ExportStatus;
  apps?: string[];
  project?: string;
  split?: SplitSpec;
  onProgress?: (p: { trajectories: number; total: number }) => void;
  actor?: AuditActor;
  db?: Db;
};

const PAGE = 100;
/** Trajectories whose steps are read in one query. */
const STEP_BATCH = 20;

/** Which statuses an export takes (every status for `all`: no filter at all). */
function statusesFor(s: ExportStatus): TaskStatus[] | undefined {
  return s === "all" ? undefined : [...exportedStatuses(s)];
}

/** What a failed export waits for or closes before its folder goes; set as the export opens them. */
type InFlight = { reader?: StepReader; links?: LinkQueue; linker?: LinkWorker; pageLinks?: Promise<void> };

/** An export under way: its hidden folder, its writers, where its screenshots go, and its counts. */
type Run = InFlight & {
  prisma: Db;
  opts: ExportOptions;
  work: string;
  total: number;
  /** Trajectories of held-out evaluation sets are marked (the bridge's training commands refuse them). */
  heldOut: Map<string, string[]>;
  reader: StepReader;
  canonical: HashedWriter;
  mobileR1: HashedWriter;
  uiS1: HashedWriter;
  /**
   * The file each name in mobile-r1/images/ holds (name -> sha256): a source's own image name is kept
   * unless two different screenshots carry it, and then the later one takes its sha256 name.
   */
  r1Names: Map<string, string>;
  /** The manifest's file list, streamed: one entry per line as files are linked, never held whole. */
  listed: FileList;
  localFile: ((key: string) => string) | undefined;
  /** Screenshots the link worker placed in screenshots/ (not already there). */
  placed: number;
  shotsDir: string;
  r1Dir: string;
  tally: Tally;
};

/** One page's output, written once the page is formatted. */
type PageOut = {
  canonicalLines: string[];
  mobileR1Lines: string[];
  uiS1Lines: string[];
  /** This page's screenshots for the link worker: [from, dest, alsoDest] per step, and what to list. */
  toLink: string[];
  toList: { rel: string; r1: string; sha: string }[];
};

/**
 * Write a versioned dataset folder: manifest.json, trajectories.jsonl (canonical, original pixels),
 * screenshots/<sha256>.<ext>, and mobile-r1/data.jsonl + images/ in the Mobile-R1 release format.
 * Streams page by page (bounded memory), writes into a hidden sibling folder and renames it at the
 * end, so a half-written export never looks complete. Order follows the content fingerprint, so the
 * same data and options give the same files (apart from manifest.createdAt).
 */
export async function exportDataset(opts: ExportOptions): Promise<ExportSummary> {
  const prisma = opts.db ?? defaultDb();
  const outDir = path.resolve(opts.outDir);
  if (existsSync(outDir)) throw appError("conflict", "error.exportFolderExists", { dir: outDir });
  const work = path.join(path.dirname(outDir), `.${path.basename(outDir)}.partial-${randomBytes(4).toString("hex")}`);
  await mkdir(path.join(work, "screenshots"), { recursive: true });
  await mkdir(path.join(work, "mobile-r1", "images"), { recursive: true });
  await mkdir(path.join(work, "ui-s1"), { recursive: true });
  const status = opts.status ?? "approved";
  const statuses = statusesFor(status);
  const where = {
    ...(statuses ? { status: { in: statuses } } : {}),
    ...(opts.apps?.length ? { app: { in: opts.apps } } : {}),
    ...(opts.project ? { project: { name: opts.project } } : {}),
  };
  const inFlight: InFlight = {};
  try {
    const run = await startRun(inFlight, prisma, opts, where, work, outDir);
    for await (const page of trajectoryPages(prisma, where, PAGE)) await exportPage(run, page);
    await finishFiles(run);
    const manifest = await manifestOf(run.tally, status, opts);
    await writeManifest(path.join(work, "manifest.json"), manifest, run.listed);
    await rename(work, outDir);
    const { summary } = run.tally;
    await recordAudit(prisma, {
      actor: opts.actor ?? CLI_ACTOR,
      action: "export.run",
      entityType: "export",
      entityId: path.basename(outDir),
      after: {
        outDir,
        filters: manifest.filters,
        split: manifest.split,
        counts: { trajectories: summary.trajectories, steps: summary.steps },
      },
    });
    return summary;
  } catch (e) {
    await inFlight.reader?.close().catch(() => {});
    await inFlight.links?.settle();
    // The worker's last batch finished (or failed) before the folder goes.
    await inFlight.pageLinks?.catch(() => {});
    await inFlight.linker?.close();
    await rm(work, { recursive: true, force: true });
    throw e;
  }
}

/** Count what `where` selects and open the export's readers and writers (into `inFlight`, which becomes the run). */
async function startRun(
  inFlight: InFlight,
  prisma: Db,
  opts: ExportOptions,
  where: TrajectoryWhere,
  work: string,
  outDir: string,
): Promise<Run> {
  const total = await prisma.trajectory.count({ where });
  const heldOut = await heldOutSets(prisma);
  inFlight.reader = await openStepReader(prisma);
  const canonical = new HashedWriter(path.join(work, "trajectories.jsonl"));
  const mobileR1 = new HashedWriter(path.join(work, "mobile-r1", "data.jsonl"));
  const uiS1 = new HashedWriter(path.join(work, "ui-s1", "data.jsonl"));
  const r1Names = new Map<string, string>();
  const listed = new FileList(path.join(work, ".manifest-files"));
  // A store on local disk: each page's screenshots hard-linked by a worker thread (plain system calls,
  // cheaper than queued ones) while the next page is read and formatted; a bucket: downloads in flight
  // through the queue.
  const store = objectStore();
  const localFile = store.localFile?.bind(store);
  if (localFile) inFlight.linker = new LinkWorker();
  else inFlight.links = new LinkQueue(listed);
  return Object.assign(inFlight, {
    prisma,
    opts,
    work,
    total,
    heldOut,
    reader: inFlight.reader,
    canonical,
    mobileR1,
    uiS1,
    r1Names,
    listed,
    localFile,
    placed: 0,
    shotsDir: path.join(work, "screenshots") + path.sep,
    r1Dir: path.join(work, "mobile-r1", "images") + path.sep,
    tally: newTally(outDir),
  });
}

/** One page of trajectories formatted and written; its screenshots linked while the next page is read. */
async function exportPage(run: Run, page: Page): Promise<void> {
  const judged = await latestJudgeVerdicts(
    run.prisma,
    page.map((t) => t.id),
  );
  const out: PageOut = { canonicalLines: [], mobileR1Lines: [], uiS1Lines: [], toLink: [], toList: [] };
  let stepsOf = new Map<string, ExportStepRow[]>();
  for (const [i, t] of page.entries()) {
    // A turn of the event loop before each trajectory: the reads (better-sqlite3) and the formatting
    // are synchronous, and a server running an export must keep answering requests meanwhile.
    await new Promise<void>((resolve) => setImmediate(resolve));
    // Steps in plain queries through the driver (Prisma's per-row work cost more than the rest of the
    // export's reading), STEP_BATCH trajectories at a time (one round trip each on PostgreSQL).
    if (i % STEP_BATCH === 0) stepsOf = await run.reader.stepsOf(page.slice(i, i + STEP_BATCH).map((x) => x.id));
    await exportTrajectory(run, t, judged.get(t.id), stepsOf.get(t.id) ?? [], out);
  }
  await run.canonical.writeLines(out.canonicalLines);
  await run.mobileR1.writeLines(out.mobileR1Lines);
  await run.uiS1.writeLines(out.uiS1Lines);
  if (run.linker) {
    await run.pageLinks;
    const { toList } = out;
    // Listed in the order met, each screenshot once: where it was placed now, not where it was already there.
    const listNow = async (outcomes: Promise<Int8Array>) => {
      const done = await outcomes;
      for (const [i, f] of toList.entries()) {
        if (done[2 * i] === NOT_STORED) throw notStored(f.sha);
        if (done[2 * i] === PLACED) {
          run.placed += 1;
          run.listed.add(f.rel, f.sha);
        }
        if (done[2 * i + 1] === PLACED) run.listed.add(f.r1, f.sha);
      }
    };
    run.pageLinks = listNow(run.linker.place(out.toLink));
    run.pageLinks.catch(() => {}); // awaited with the next page, or below; this only keeps it from being "unhandled" meanwhile
  }
  await run.listed.flush();
}

/** One trajectory's lines (canonical, Mobile-R1, UI-S1) added to `out`, its screenshots queued, its counts taken. */
async function exportTrajectory(
  run: Run,
  t: Page[number],
  judge: CanonicalTrajectory["judge"] | undefined,
  steps: ExportStepRow[],
  out: PageOut,
): Promise<void> {
  const split = run.opts.split ? splitOf(run.opts.split, t) : undefined;
  const record = canonicalHead(t, judge, split, run.heldOut.get(t.id));
  // An overlapped trajectory carries each person's copy as an alternative (issue 26 item 3).
  if (t.overlap > 0) record.annotations = (await alternativesOf(run.prisma, t.id)).map(({ copyId: _copyId, ...a }) => a);
  /** Each step's file name in mobile-r1/images/, for the trajectory at hand. */
  const r1Files: string[] = [];
  for (const s of steps) {
    const ext = screenshotExt(s.screenshot.mime);
    const rel = `screenshots/${s.screenshotSha}${ext}`;
    const sha = s.screenshotSha;
    const step = canonicalStep(s);
    const wanted = sourceImageName(step.original.row) ?? `${sha}${ext}`;
    const holder = run.r1Names.get(wanted);
    // A clash (another screenshot already has this name): the sha256 name, which only this content can hold.
    const name = holder === undefined || holder === sha ? wanted : `${sha}${ext}`;
    const isNewName = !run.r1Names.has(name);
    if (isNewName) run.r1Names.set(name, sha);
    r1Files.push(name);
    const r1 = `mobile-r1/images/${name}`;
    if (run.links) await run.links.add(s.screenshot.mime, run.work, rel, isNewName ? r1 : null, sha);
    else {
      // The two folders joined once (path.join per step was a tenth of what an export allocated).
      out.toLink.push(
        run.localFile!(screenshotKey(sha, s.screenshot.mime)),
        `${run.shotsDir}${sha}${ext}`,
        isNewName ? `${run.r1Dir}${name}` : "",
      );
      out.toList.push({ rel, r1, sha });
    }
    record.steps.push(step);
  }
  out.canonicalLines.push(JSON.stringify(withProcessLabels(record)));
  const r1 = mobileR1Row(record, (step) => r1Files[step.index]!);
  if ((r1.trajectory as unknown[]).length > 0) out.mobileR1Lines.push(JSON.stringify(r1));
  const ui = uiS1Row(record);
  if (ui) out.uiS1Lines.push(JSON.stringify(ui));
  countTrajectory(run.tally, record, t.app, split);
  run.opts.onProgress?.({ trajectories: run.tally.summary.trajectories, total: run.total });
}

/** The last links placed, the reader closed, the JSONL files closed and listed with their hashes. */
async function finishFiles(run: Run): Promise<void> {
  const { tally, links, listed } = run;
  await run.pageLinks;
  await run.linker?.close();
  run.linker = undefined;
  await run.reader.close();
  (run as InFlight).reader = undefined; // closed: the failure path closes only what is still open
  if (tally.anyAnswer) tally.summary.trainer = tally.withAnswer;
  await links?.drain();
  const screenshots = links ? links.linked : run.placed;
  listed.add("trajectories.jsonl", await run.canonical.close());
  listed.add("mobile-r1/data.jsonl", await run.mobileR1.close());
  listed.add("ui-s1/data.jsonl", await run.uiS1.close());
  await listed.close();
  tally.summary.screenshots = screenshots;
}

const notStored = (sha256: string) => appError("not_found", "error.screenshotMissing", { id: sha256 });
