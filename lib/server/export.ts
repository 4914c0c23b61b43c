import { createHash, randomBytes } from "node:crypto";
import { constants, createReadStream, createWriteStream, existsSync, type WriteStream } from "node:fs";
import { copyFile, link, mkdir, readFile, rename, rm } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { once } from "node:events";
import path from "node:path";
import { QWEN_MIN_PIXELS } from "@/lib/domain/geometry";
import { mobileR1ResponseText } from "@/lib/domain/prompt";
import { emptyHints, measureTrajectorySpaces, SUGGESTED_MAX_PIXELS, usesAnswer, type TrainerHints } from "@/lib/domain/trainer-hints";
import { formatMobileUseCall } from "@/lib/domain/tool-call";
import { CANONICAL_FORMAT, isTrainingTarget, type CanonicalTrajectory } from "@/lib/domain/trajectory";
import { taskStatusSchema, type TaskStatus } from "@/lib/domain/status";
import { db as defaultDb, type Db } from "./db";
import { EXPORT_STATUS_OPTIONS, exportedStatuses } from "@/lib/domain/exports";
import { CLI_ACTOR, recordAudit, type AuditActor } from "./audit";
import { AppError } from "./errors";
import { fromStore } from "./stored";
import { stepFromRow } from "./trajectories";
import { openStepReader, type ExportStepRow, type StepReader } from "./export-read";
import { LinkWorker, NOT_STORED, PLACED } from "./export-links";
import { copyScreenshotTo, screenshotExt, screenshotKey } from "./screenshot-store";
import { objectStore } from "./object-store";
import { splitOf, type SplitSpec } from "./split";
import { latestJudgeVerdicts } from "./judge";

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
class HashedWriter {
  private readonly hash = createHash("sha256");
  private readonly out: WriteStream;
  constructor(file: string) {
    this.out = createWriteStream(file);
  }
  async write(text: string): Promise<void> {
    if (text === "") return;
    const bytes = Buffer.from(text); // encoded once, for the hash and the file
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
  if (existsSync(outDir)) throw new AppError("conflict", `${outDir} already exists; choose a new folder for each export`);
  const work = path.join(path.dirname(outDir), `.${path.basename(outDir)}.partial-${randomBytes(4).toString("hex")}`);
  await mkdir(path.join(work, "screenshots"), { recursive: true });
  await mkdir(path.join(work, "mobile-r1", "images"), { recursive: true });
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
    reader = await openStepReader(prisma);
    const canonical = new HashedWriter(path.join(work, "trajectories.jsonl"));
    const mobileR1 = new HashedWriter(path.join(work, "mobile-r1", "data.jsonl"));
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
    // Measured both ways: the bridge's prompts declare `answer` for the whole export if any trajectory answers.
    let withAnswer = emptyHints(SUGGESTED_MAX_PIXELS, QWEN_MIN_PIXELS);
    let anyAnswer = false;
    // Keyset paging on (fingerprint, id): the same data in two projects shares a fingerprint.
    let cursor: { fingerprint: string; id: string } | undefined;
    for (;;) {
      const after = cursor
        ? { OR: [{ fingerprint: { gt: cursor.fingerprint } }, { fingerprint: cursor.fingerprint, id: { gt: cursor.id } }] }
        : {};
      const page = await prisma.trajectory.findMany({
        where: { AND: [where, after] },
        orderBy: [{ fingerprint: "asc" }, { id: "asc" }],
        take: PAGE,
        include: { project: { select: { name: true } } },
      });
      if (page.length === 0) break;
      const last = page[page.length - 1]!;
      cursor = { fingerprint: last.fingerprint, id: last.id };
      const judged = await latestJudgeVerdicts(
        prisma,
        page.map((t) => t.id),
      );
      let canonicalText = "";
      let mobileR1Text = "";
      // This page's screenshots for the link worker: [from, dest, alsoDest] per step, and what to list.
      const toLink: string[] = [];
      const toList: { rel: string; r1: string; sha: string }[] = [];
      let stepsOf = new Map<string, ExportStepRow[]>();
      for (const [i, t] of page.entries()) {
        // A turn of the event loop before each trajectory: the reads (better-sqlite3) and the formatting
        // are synchronous, and a server running an export must keep answering requests meanwhile.
        await new Promise<void>((resolve) => setImmediate(resolve));
        // Steps in plain queries through the driver (Prisma's per-row work cost more than the rest of the
        // export's reading), STEP_BATCH trajectories at a time (one round trip each on PostgreSQL).
        if (i % STEP_BATCH === 0) stepsOf = await reader.stepsOf(page.slice(i, i + STEP_BATCH).map((x) => x.id));
        const split = opts.split ? splitOf(opts.split, t) : undefined;
        const record: CanonicalTrajectory = {
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
          ...(split ? { split } : {}),
          steps: [],
          provenance: {
            fingerprint: t.fingerprint,
            importBatch: t.batchId,
            createdAt: t.createdAt.toISOString(),
            updatedAt: t.updatedAt.toISOString(),
          },
          ...(judged.has(t.id) ? { judge: judged.get(t.id) } : {}),
        };
        for (const s of stepsOf.get(t.id) ?? []) {
          const ext = screenshotExt(s.screenshot.mime);
          const rel = `screenshots/${s.screenshotSha}${ext}`;
          const sha = s.screenshotSha;
          const r1 = `mobile-r1/images/${sha}${ext}`;
          if (links) await links.add(s.screenshot.mime, work, rel, r1, sha);
          else {
            // The two folders joined once (path.join per step was a tenth of what an export allocated).
            toLink.push(localFile!(screenshotKey(sha, s.screenshot.mime)), `${shotsDir}${sha}${ext}`, `${r1Dir}${sha}${ext}`);
            toList.push({ rel, r1, sha });
          }
          const { id: _id, screenshot, ...view } = stepFromRow(s);
          record.steps.push({ ...view, screenshot: { ...screenshot, file: rel } });
        }
        canonicalText += `${JSON.stringify(record)}\n`;
        const r1 = toMobileR1(record);
        if (r1.trajectory.length > 0) mobileR1Text += `${JSON.stringify(r1)}\n`;
        summary.trajectories += 1;
        summary.steps += record.steps.length;
        summary.trainingSteps += record.steps.filter((s) => isTrainingTarget(record, s)).length;
        summary.harmfulSteps += record.steps.filter((s) => s.verdict === "harmful").length;
        [summary.trainer, withAnswer] = measureTrajectorySpaces([summary.trainer, withAnswer], record, ["mobile-use", "ui-s1"]);
        anyAnswer ||= usesAnswer(record);
        byApp[t.app] = (byApp[t.app] ?? 0) + 1;
        if (split) summary.bySplit[split] = (summary.bySplit[split] ?? 0) + 1;
        opts.onProgress?.({ trajectories: summary.trajectories, total });
      }
      await canonical.write(canonicalText);
      await mobileR1.write(mobileR1Text);
      if (linker) {
        await pageLinks;
        // Listed in the order met, each screenshot once: where it was placed now, not where it was already there.
        const listNow = async (outcomes: Promise<Int8Array>) => {
          const done = await outcomes;
          for (const [i, f] of toList.entries()) {
            if (done[i] === NOT_STORED) throw notStored(f.sha);
            if (done[i] !== PLACED) continue;
            placed += 1;
            listed.add(f.rel, f.sha);
            listed.add(f.r1, f.sha);
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
      },
      /** Measured at the max_pixels the export page proposes; the bridge measures again at its own. */
      trainer: summary.trainer,
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

const notStored = (sha256: string) => new AppError("not_found", `screenshot ${sha256} is not in the store`);

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
 * fails with EEXIST), and a screenshot met again while its first link is in flight is skipped.
 */
class LinkQueue {
  readonly #queue: { done: Promise<boolean>; rel: string; r1: string; sha256: string }[] = [];
  readonly #inFlight = new Set<string>();
  readonly #listed: FileList;
  linked = 0;
  constructor(listed: FileList) {
    this.#listed = listed;
  }
  async add(mime: string, work: string, rel: string, r1: string, sha256: string): Promise<void> {
    if (this.#inFlight.has(sha256)) return;
    this.#inFlight.add(sha256);
    const done = (async () => {
      const dest = path.join(work, rel);
      // Linked from the local store, or downloaded from the bucket; false when an earlier trajectory
      // placed it already (the export folder is the record of what is done).
      if (!(await copyScreenshotTo(sha256, mime, dest))) return false;
      await linkOrCopy(dest, path.join(work, r1));
      return true;
    })();
    done.catch(() => {}); // awaited in order by #next(); this only keeps an early failure from being "unhandled"
    this.#queue.push({ done, rel, r1, sha256 });
    if (this.#queue.length >= LINKS_IN_FLIGHT) await this.#next();
  }
  async #next(): Promise<void> {
    const head = this.#queue.shift()!;
    const first = await head.done.finally(() => this.#inFlight.delete(head.sha256));
    if (!first) return;
    this.linked += 1;
    this.#listed.add(head.rel, head.sha256);
    this.#listed.add(head.r1, head.sha256);
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

/**
 * One line of the Mobile-R1 release format (FORMATS.md §1.2). Coordinates stay in original pixels
 * (image_width/height say which). Only training targets appear: a reader of that format trains on
 * every step it finds, so harmful steps and steps after the cut are left out (and a trajectory
 * with no step left, e.g. a discarded one, gets no line).
 */
function toMobileR1(t: CanonicalTrajectory) {
  const steps = t.steps.filter((s) => isTrainingTarget(t, s));
  const first = t.steps[0]!;
  return {
    app_name: t.app,
    trajectory_length: steps.length,
    instruction: t.instruction,
    system: t.systemPrompt ?? "",
    image_width: first.screenshot.width,
    image_height: first.screenshot.height,
    trajectory: steps.map((s) => {
      const action = formatMobileUseCall(s.toolCall);
      return {
        image: path.basename(s.screenshot.file ?? `${s.screenshot.sha256}.png`),
        thought: s.thought.text,
        subtask: s.clearAction,
        action,
        response: mobileR1ResponseText(s.thought.text, s.clearAction, action),
        bbox: s.box,
      };
    }),
  };
}
