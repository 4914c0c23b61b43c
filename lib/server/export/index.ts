import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { constants, createReadStream, createWriteStream, existsSync, type WriteStream } from "node:fs";
import { copyFile, link, mkdir, readFile, rename, rm } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { once } from "node:events";
import path from "node:path";
import { QWEN_MIN_PIXELS } from "@/lib/domain/geometry";
import { emptyHints, measureTrajectorySpaces, SUGGESTED_MAX_PIXELS, usesAnswer, type TrainerHints } from "@/lib/domain/trainer-hints";
import { mobileR1Row, uiS1Row } from "@/lib/domain/source-rows";
import { CANONICAL_FORMAT, isTrainingTarget, laneSchema, type CanonicalTrajectory, type Lane } from "@/lib/domain/trajectory";
import { taskStatusSchema, type TaskStatus } from "@/lib/domain/status";
import { db as defaultDb, type Db } from "../db";
import { EXPORT_STATUS_OPTIONS, exportedStatuses } from "@/lib/domain/exports";
import { CLI_ACTOR, recordAudit, type AuditActor } from "../people/audit";
import { alternativesOf } from "../review/adjudicate";
import { appError } from "../http/errors";
import { fromStore } from "../http/stored";
import { stepFromRow } from "../annotate/trajectories";
import { openStepReader, type ExportStepRow, type StepReader } from "./read";
import { LinkWorker, NOT_STORED, PLACED } from "./links";
import { copyScreenshotTo, screenshotExt, screenshotKey } from "../object-store/screenshots";
import { objectStore } from "../object-store";
import { splitOf, type SplitSpec } from "./split";
import { latestJudgeVerdicts } from "../model/judge";
import { heldOutSets } from "./held-out";
import type { Trajectory } from "../generated/sqlite/client";

export const EXPORT_FORMAT = "trajectory-studio-export/v1";
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

export type ExportSummary = {
  outDir: string;
  trajectories: number;
  steps: number;
  trainingSteps: number;
  harmfulSteps: number;
  screenshots: number;
  bySplit: Record<string, number>;
  /** Longest SFT sample at SUGGESTED_MAX_PIXELS, for the trainer settings the export page prints. */
  trainer: TrainerHints;
};

const PAGE = 100;
/** Trajectories whose steps are read in one query. */
const STEP_BATCH = 20;

/** Which statuses an export takes (every status for `all`: no filter at all). */
function statusesFor(s: ExportStatus): TaskStatus[] | undefined {
  return s === "all" ? undefined : [...exportedStatuses(s)];
}

/** A JSONL writer that hashes what it writes and respects back-pressure; a page's lines go in one write. */
const NEWLINE = Buffer.from("\n");

class HashedWriter {
  private readonly hash = createHash("sha256");
  private readonly out: WriteStream;
  constructor(file: string) {
    this.out = createWriteStream(file);
  }
  /**
   * Append `lines`, each followed by a newline. Each line is encoded on its own, then joined: one string
   * of a page's lines built with += is a rope of two-byte (CJK) text, and flattening and encoding it at
   * once took about three times as long (0.7 s against 0.2 s of CPU for a 26,777-step export's pages).
   */
  async writeLines(lines: readonly string[]): Promise<void> {
    if (lines.length === 0) return;
    const parts: Buffer[] = [];
    for (const line of lines) parts.push(Buffer.from(line), NEWLINE);
    const bytes = Buffer.concat(parts); // encoded once, for the hash and the file
    this.hash.update(bytes);
    if (!this.out.write(bytes)) await once(this.out, "drain");
  }
  async close(): Promise<string> {
    this.out.end();
    await once(this.out, "finish");
    return this.hash.digest("hex");
  }
}

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
  let links: LinkQueue | undefined;
  let linker: LinkWorker | undefined;
  /** The previous page's links, made by `linker` while this page is formatted; at most one page in flight. */
  let pageLinks: Promise<void> | undefined;
  let reader: StepReader | undefined;
  try {
    const total = await prisma.trajectory.count({ where });
    // Trajectories of held-out evaluation sets are marked (the bridge's training commands refuse them).
    const heldOut = await heldOutSets(prisma);
    const heldOutCounts = { trajectories: 0, steps: 0, sets: new Set<string>() };
    reader = await openStepReader(prisma);
    const canonical = new HashedWriter(path.join(work, "trajectories.jsonl"));
    const mobileR1 = new HashedWriter(path.join(work, "mobile-r1", "data.jsonl"));
    const uiS1 = new HashedWriter(path.join(work, "ui-s1", "data.jsonl"));
    // The file each name in mobile-r1/images/ holds (name -> sha256): a source's own image name is kept
    // unless two different screenshots carry it, and then the later one takes its sha256 name.
    const r1Names = new Map<string, string>();
    // The manifest's file list, streamed: one entry per line as files are linked, never held whole.
    const listed = new FileList(path.join(work, ".manifest-files"));
    // A store on local disk: each page's screenshots hard-linked by a worker thread (plain system calls,
    // cheaper than queued ones) while the next page is read and formatted; a bucket: downloads in flight
    // through the queue.
    const store = objectStore();
    const localFile = store.localFile?.bind(store);
    if (localFile) linker = new LinkWorker();
    else links = new LinkQueue(listed);
    let placed = 0;
    const shotsDir = path.join(work, "screenshots") + path.sep;
    const r1Dir = path.join(work, "mobile-r1", "images") + path.sep;
    const summary: ExportSummary = {
      outDir,
      trajectories: 0,
      steps: 0,
      trainingSteps: 0,
      harmfulSteps: 0,
      screenshots: 0,
      bySplit: {},
      trainer: emptyHints(SUGGESTED_MAX_PIXELS, QWEN_MIN_PIXELS),
    };
    const byApp: Record<string, number> = {};
    // Trajectories by the lane of their last hand-in (lib/domain/lane.ts); "none": never handed in.
    const byLane: Record<Lane | "none", number> = { full: 0, fast: 0, "fast-then-full": 0, none: 0 };
    // Measured both ways: the bridge's prompts declare `answer` for the whole export if any trajectory answers.
    let withAnswer = emptyHints(SUGGESTED_MAX_PIXELS, QWEN_MIN_PIXELS);
    let anyAnswer = false;
    for await (const page of trajectoryPages(prisma, where, PAGE)) {
      const judged = await latestJudgeVerdicts(
        prisma,
        page.map((t) => t.id),
      );
      const canonicalLines: string[] = [];
      const mobileR1Lines: string[] = [];
      const uiS1Lines: string[] = [];
      // This page's screenshots for the link worker: [from, dest, alsoDest] per step, and what to list.
      const toLink: string[] = [];
      const toList: { rel: string; r1: string; sha: string }[] = [];
      /** Each step's file name in mobile-r1/images/, for the trajectory at hand. */
      let r1Files: string[] = [];
      let stepsOf = new Map<string, ExportStepRow[]>();
      for (const [i, t] of page.entries()) {
        // A turn of the event loop before each trajectory: the reads (better-sqlite3) and the formatting
        // are synchronous, and a server running an export must keep answering requests meanwhile.
        await new Promise<void>((resolve) => setImmediate(resolve));
        // Steps in plain queries through the driver (Prisma's per-row work cost more than the rest of the
        // export's reading), STEP_BATCH trajectories at a time (one round trip each on PostgreSQL).
        if (i % STEP_BATCH === 0) stepsOf = await reader.stepsOf(page.slice(i, i + STEP_BATCH).map((x) => x.id));
        const split = opts.split ? splitOf(opts.split, t) : undefined;
        const record = canonicalHead(t, judged.get(t.id), split, heldOut.get(t.id));
        // An overlapped trajectory carries each person's copy as an alternative (issue 26 item 3).
        if (t.overlap > 0) record.annotations = (await alternativesOf(prisma, t.id)).map(({ copyId: _copyId, ...a }) => a);
        r1Files = [];
        for (const s of stepsOf.get(t.id) ?? []) {
          const ext = screenshotExt(s.screenshot.mime);
          const rel = `screenshots/${s.screenshotSha}${ext}`;
          const sha = s.screenshotSha;
          const step = canonicalStep(s);
          const wanted = sourceImageName(step.original.row) ?? `${sha}${ext}`;
          const holder = r1Names.get(wanted);
          // A clash (another screenshot already has this name): the sha256 name, which only this content can hold.
          const name = holder === undefined || holder === sha ? wanted : `${sha}${ext}`;
          const isNewName = !r1Names.has(name);
          if (isNewName) r1Names.set(name, sha);
          r1Files.push(name);
          const r1 = `mobile-r1/images/${name}`;
          if (links) await links.add(s.screenshot.mime, work, rel, isNewName ? r1 : null, sha);
          else {
            // The two folders joined once (path.join per step was a tenth of what an export allocated).
            toLink.push(localFile!(screenshotKey(sha, s.screenshot.mime)), `${shotsDir}${sha}${ext}`, isNewName ? `${r1Dir}${name}` : "");
            toList.push({ rel, r1, sha });
          }
          record.steps.push(step);
        }
        canonicalLines.push(JSON.stringify(record));
        const files = r1Files;
        const r1 = mobileR1Row(record, (step) => files[step.index]!);
        if ((r1.trajectory as unknown[]).length > 0) mobileR1Lines.push(JSON.stringify(r1));
        const ui = uiS1Row(record);
        if (ui) uiS1Lines.push(JSON.stringify(ui));
        summary.trajectories += 1;
        summary.steps += record.steps.length;
        if (record.heldOut) {
          heldOutCounts.trajectories += 1;
          heldOutCounts.steps += record.steps.length;
          for (const label of record.heldOut) heldOutCounts.sets.add(label);
        }
        summary.trainingSteps += record.steps.filter((s) => isTrainingTarget(record, s)).length;
        summary.harmfulSteps += record.steps.filter((s) => s.verdict === "harmful").length;
        [summary.trainer, withAnswer] = measureTrajectorySpaces([summary.trainer, withAnswer], record, ["mobile-use", "ui-s1"]);
        anyAnswer ||= usesAnswer(record);
        byApp[t.app] = (byApp[t.app] ?? 0) + 1;
        byLane[record.lane ?? "none"] += 1;
        if (split) summary.bySplit[split] = (summary.bySplit[split] ?? 0) + 1;
        opts.onProgress?.({ trajectories: summary.trajectories, total });
      }
      await canonical.writeLines(canonicalLines);
      await mobileR1.writeLines(mobileR1Lines);
      await uiS1.writeLines(uiS1Lines);
      if (linker) {
        await pageLinks;
        // Listed in the order met, each screenshot once: where it was placed now, not where it was already there.
        const listNow = async (outcomes: Promise<Int8Array>) => {
          const done = await outcomes;
          for (const [i, f] of toList.entries()) {
            if (done[2 * i] === NOT_STORED) throw notStored(f.sha);
            if (done[2 * i] === PLACED) {
              placed += 1;
              listed.add(f.rel, f.sha);
            }
            if (done[2 * i + 1] === PLACED) listed.add(f.r1, f.sha);
          }
        };
        pageLinks = listNow(linker.place(toLink));
        pageLinks.catch(() => {}); // awaited with the next page, or below; this only keeps it from being "unhandled" meanwhile
      }
      await listed.flush();
    }
    await pageLinks;
    await linker?.close();
    linker = undefined;
    await reader.close();
    reader = undefined;
    if (anyAnswer) summary.trainer = withAnswer;
    await links?.drain();
    const screenshots = links ? links.linked : placed;
    listed.add("trajectories.jsonl", await canonical.close());
    listed.add("mobile-r1/data.jsonl", await mobileR1.close());
    listed.add("ui-s1/data.jsonl", await uiS1.close());
    await listed.close();
    summary.screenshots = screenshots;
    const pkg = JSON.parse(await readFile(path.join(process.cwd(), "package.json"), "utf8")) as { version: string };
    const manifest = {
      format: EXPORT_FORMAT,
      createdAt: new Date().toISOString(),
      studioVersion: pkg.version,
      coordinateFrame: "original screenshot pixels",
      filters: { status, apps: opts.apps ?? [], project: opts.project ?? null },
      split: opts.split ?? { kind: "none" },
      counts: {
        trajectories: summary.trajectories,
        steps: summary.steps,
        trainingSteps: summary.trainingSteps,
        harmfulSteps: summary.harmfulSteps,
        screenshots: summary.screenshots,
        byApp: Object.fromEntries(Object.entries(byApp).sort(([a], [b]) => a.localeCompare(b))),
        bySplit: summary.bySplit,
        byLane,
      },
      /** Measured at the max_pixels the export page proposes; the bridge measures again at its own. */
      trainer: summary.trainer,
      ...(heldOutCounts.trajectories > 0
        ? {
            heldOut: {
              trajectories: heldOutCounts.trajectories,
              steps: heldOutCounts.steps,
              sets: [...heldOutCounts.sets].sort(),
            },
          }
        : {}),
      files: FILES_PLACEHOLDER,
    };
    await writeManifest(path.join(work, "manifest.json"), manifest, listed);
    await rename(work, outDir);
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
    await reader?.close().catch(() => {});
    await links?.settle();
    // The worker's last batch finished (or failed) before the folder goes.
    await pageLinks?.catch(() => {});
    await linker?.close();
    await rm(work, { recursive: true, force: true });
    throw e;
  }
}

/** The trajectory row the canonical record is made from (with its project's name). */
export type CanonicalSource = Pick<
  Trajectory,
  | "id"
  | "app"
  | "instruction"
  | "source"
  | "sourceRef"
  | "systemPrompt"
  | "status"
  | "outcome"
  | "originalOutcome"
  | "isDiscarded"
  | "cutAfter"
  | "lane"
  | "metaJson"
  | "fingerprint"
  | "batchId"
  | "createdAt"
  | "updatedAt"
> & { project: { name: string } };

/**
 * A trajectory's canonical export line without its steps (the caller adds them in order): the one place
 * that shapes it, for exports and for snapshots (evaluation sets, releases). `heldOut` names the held-out
 * evaluation sets holding it ("name v2"), absent when none.
 */
export function canonicalHead(
  t: CanonicalSource,
  judge: CanonicalTrajectory["judge"] | undefined,
  split: string | undefined,
  heldOut: readonly string[] | undefined,
): CanonicalTrajectory {
  return {
    format: CANONICAL_FORMAT,
    id: t.id,
    project: t.project.name,
    app: t.app,
    instruction: t.instruction,
    source: t.source as CanonicalTrajectory["source"],
    sourceRef: t.sourceRef,
    systemPrompt: t.systemPrompt,
    status: fromStore(taskStatusSchema, t.status, `status of trajectory ${t.id}`),
    outcome: t.outcome as CanonicalTrajectory["outcome"],
    originalOutcome: t.originalOutcome as CanonicalTrajectory["originalOutcome"],
    isDiscarded: t.isDiscarded,
    cutAfter: t.cutAfter,
    lane: fromStore(laneSchema.nullable(), t.lane, `lane of trajectory ${t.id}`),
    ...(split ? { split } : {}),
    steps: [],
    ...metaOf(t.metaJson, t.id),
    provenance: {
      fingerprint: t.fingerprint,
      importBatch: t.batchId,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    },
    ...(judge ? { judge } : {}),
    ...(heldOut && heldOut.length > 0 ? { heldOut: [...heldOut] } : {}),
  };
}

type TrajectoryWhere = NonNullable<NonNullable<Parameters<Db["trajectory"]["findMany"]>[0]>["where"]>;

/**
 * The trajectories `where` selects, with their project's name, a page at a time in a stable order:
 * keyset paging on (fingerprint, id), as the same data in two projects shares a fingerprint.
 */
export async function* trajectoryPages(prisma: Db, where: TrajectoryWhere, size: number) {
  let cursor: { fingerprint: string; id: string } | undefined;
  for (;;) {
    const after = cursor
      ? { OR: [{ fingerprint: { gt: cursor.fingerprint } }, { fingerprint: cursor.fingerprint, id: { gt: cursor.id } }] }
      : {};
    const page = await prisma.trajectory.findMany({
      // Overlap and gold copies are people's work on a trajectory, not training data of their own.
      where: { AND: [where, after, { copyOfId: null }] },
      orderBy: [{ fingerprint: "asc" }, { id: "asc" }],
      take: size,
      include: { project: { select: { name: true } } },
    });
    if (page.length === 0) return;
    const last = page[page.length - 1]!;
    cursor = { fingerprint: last.fingerprint, id: last.id };
    yield page;
  }
}

/** A stored step as its canonical line's step (screenshot file under screenshots/, named by content). */
export function canonicalStep(s: ExportStepRow): CanonicalTrajectory["steps"][number] {
  const { id: _id, screenshot, ...view } = stepFromRow(s);
  return { ...view, screenshot: { ...screenshot, file: `screenshots/${s.screenshotSha}${screenshotExt(s.screenshot.mime)}` } };
}

const notStored = (sha256: string) => appError("not_found", "error.screenshotMissing", { id: sha256 });

/**
 * Store files are immutable and named by their content, so an export hard-links them (no bytes
 * copied) when it is on the same file system, and copies them otherwise. False when `to` is already
 * there (the same content, exported before).
 */
async function linkOrCopy(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    try {
      await copyFile(from, to, constants.COPYFILE_EXCL);
      return true;
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw e2;
    }
  }
}

/** Links in flight at once (the file system's thread pool runs four; a few more keep it busy). */
const LINKS_IN_FLIGHT = 16;
const FILES_PLACEHOLDER = "\u0000files\u0000";

/**
 * Each screenshot hard-linked (or copied) into screenshots/ and mobile-r1/images/, LINKS_IN_FLIGHT at a
 * time, and listed in the manifest in the order the export first met it (the same data gives the same
 * manifest). No set of exported files is kept: the export folder is that set (a second link of a file
 * fails with EEXIST), and a screenshot met again while its first copy is in flight waits for that copy.
 * `r1` (its name in mobile-r1/images/) is null when an earlier step placed that name already.
 */
class LinkQueue {
  readonly #queue: { done: Promise<{ first: boolean; named: boolean }>; rel: string; r1: string | null; sha256: string }[] = [];
  /** The copy in flight per screenshot, so a repeat (under another mobile-r1 name) links from a finished file. */
  readonly #inFlight = new Map<string, Promise<boolean>>();
  readonly #listed: FileList;
  linked = 0;
  constructor(listed: FileList) {
    this.#listed = listed;
  }
  async add(mime: string, work: string, rel: string, r1: string | null, sha256: string): Promise<void> {
    const dest = path.join(work, rel);
    const earlier = this.#inFlight.get(sha256);
    // Linked from the local store, or downloaded from the bucket; false when an earlier trajectory
    // placed it already (the export folder is the record of what is done).
    const copy = earlier ?? copyScreenshotTo(sha256, mime, dest);
    if (!earlier) {
      this.#inFlight.set(sha256, copy);
      void copy.finally(() => this.#inFlight.delete(sha256)).catch(() => {});
    }
    const done = (async () => {
      const first = (await copy) && !earlier;
      const named = r1 !== null && (await linkOrCopy(dest, path.join(work, r1)));
      return { first, named };
    })();
    done.catch(() => {}); // awaited in order by #next(); this only keeps an early failure from being "unhandled"
    this.#queue.push({ done, rel, r1, sha256 });
    if (this.#queue.length >= LINKS_IN_FLIGHT) await this.#next();
  }
  async #next(): Promise<void> {
    const head = this.#queue.shift()!;
    const { first, named } = await head.done;
    if (first) {
      this.linked += 1;
      this.#listed.add(head.rel, head.sha256);
    }
    if (named && head.r1 !== null) this.#listed.add(head.r1, head.sha256);
  }
  async drain(): Promise<void> {
    while (this.#queue.length > 0) await this.#next();
  }
  /** Wait for the links in flight, ignoring their outcome (before removing a failed export's folder). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.#queue.map((q) => q.done));
  }
}

/**
 * manifest.json's `files` entries, one JSON line each in a side file, in the order files were written
 * (gathered per page, written by flush()).
 */
class FileList {
  readonly file: string;
  readonly #out: WriteStream;
  #pending = "";
  count = 0;
  constructor(file: string) {
    this.file = file;
    this.#out = createWriteStream(file);
  }
  add(rel: string, sha256: string): void {
    this.#pending += `${this.count === 0 ? "" : ",\n"}    ${JSON.stringify(rel)}: ${JSON.stringify(sha256)}`;
    this.count += 1;
  }
  async flush(): Promise<void> {
    const text = this.#pending;
    this.#pending = "";
    if (text !== "" && !this.#out.write(text)) await once(this.#out, "drain");
  }
  async close(): Promise<void> {
    await this.flush();
    this.#out.end();
    await once(this.#out, "finish");
  }
}

/**
 * Write manifest.json as JSON.stringify(manifest, null, 2) would, with the file list streamed in from
 * its side file where `files` holds FILES_PLACEHOLDER (the side file is removed).
 */
async function writeManifest(target: string, manifest: Record<string, unknown>, files: FileList): Promise<void> {
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  const marker = `${JSON.stringify(FILES_PLACEHOLDER)}`;
  const at = text.indexOf(marker);
  const out = createWriteStream(target);
  out.write(`${text.slice(0, at)}{\n`);
  await pipeline(createReadStream(files.file), out, { end: false });
  out.end(`\n  }${text.slice(at + marker.length)}`);
  await once(out, "finish");
  await rm(files.file);
}

/** A trajectory's stored meta for the canonical line (absent when empty: trajectories made here have none). */
function metaOf(json: string, id: string): { meta?: Record<string, unknown> } {
  const meta = fromStore(metaSchema, JSON.parse(json), `meta of trajectory ${id}`);
  return Object.keys(meta).length > 0 ? { meta } : {};
}
const metaSchema = z.record(z.string(), z.unknown());

/**
 * The image name a source row gave a step (Mobile-R1 `image`), when it is a safe bare file name to
 * write into mobile-r1/images/: no folder, not hidden, no character a file system refuses.
 */
export function sourceImageName(row: Record<string, unknown> | undefined): string | undefined {
  const name = row?.image;
  if (typeof name !== "string" || name.length === 0 || Buffer.byteLength(name) > 200) return undefined;
  // eslint-disable-next-line no-control-regex
  return /^[^./\\\u0000-\u001f:*?"<>|][^/\\\u0000-\u001f:*?"<>|]*$/.test(name) ? name : undefined;
}
