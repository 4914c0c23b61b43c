import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import { formatBridgeProblem, type BridgeProblem, type ExportDir } from "./export-reader";

/** Where the CLI writes: process.stdout/stderr, or collectors in tests. */
export type BridgeIo = { stdout: { write(s: string): unknown }; stderr: { write(s: string): unknown } };

/**
 * Counts problems and prints them (and progress) to stderr as the run goes.
 * Problems are printed in full up to a limit, then only counted.
 */
export class RunLog {
  problems = 0;
  private lastProgress = 0;
  private readonly printed: BridgeProblem[] = [];

  constructor(
    private readonly io: BridgeIo,
    private readonly label: string,
    private readonly printLimit = 200,
  ) {}

  problem(p: BridgeProblem): void {
    this.problems += 1;
    if (this.printed.length < this.printLimit) {
      this.printed.push(p);
      this.io.stderr.write(`problem: ${formatBridgeProblem(p)}\n`);
    } else if (this.printed.length === this.printLimit && this.problems === this.printLimit + 1) {
      this.io.stderr.write(`problem: … further problems are counted but not printed\n`);
    }
  }

  /** First problems, for the summary file. */
  get sample(): BridgeProblem[] {
    return this.printed;
  }

  /**
   * A progress line while the run reads, worded so it never reads like a result: "reading 12 of 60
   * trajectories… (84 rows so far)". `exp` gives the total from its manifest where it says.
   */
  reading(done: number, exp: { manifest: { counts?: { trajectories?: number } | null } }, sofar: string): void {
    const total = exp.manifest.counts?.trajectories;
    this.progress(`${total === undefined ? `reading trajectory ${done}` : `reading ${done} of ${total} trajectories`}… (${sofar} so far)`);
  }

  /** Print a progress line at most every `everyMs` (always when `force`). */
  progress(text: string, force = false, everyMs = 2000): void {
    const now = Date.now();
    if (!force && now - this.lastProgress < everyMs) return;
    this.lastProgress = now;
    this.io.stderr.write(`${this.label}: ${text}\n`);
  }

  info(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }
}

/** Outputs written and not closed yet: a run that throws removes their `.incomplete` files (discardOpenOutputs). */
const OPEN_OUTPUTS = new Set<{ discard(): Promise<void> }>();

/** Remove the `.incomplete` file of every output still open (a command that failed part-way). */
export async function discardOpenOutputs(): Promise<void> {
  for (const o of [...OPEN_OUTPUTS]) await o.discard();
}

/**
 * A JSON Lines file written row by row with back-pressure, first to `<name>.incomplete`; `close(true)`
 * moves it into place, and a run that ends with problems or fails removes it, so no file that looks finished
 * and no half-written file is left.
 */
export class JsonlOutput {
  rows = 0;
  private constructor(
    readonly finalPath: string,
    private readonly tmpPath: string,
    private readonly stream: WriteStream,
  ) {}

  static async create(finalPath: string): Promise<JsonlOutput> {
    await mkdir(path.dirname(finalPath), { recursive: true });
    const tmpPath = `${finalPath}.incomplete`;
    await rm(finalPath, { force: true });
    const out = new JsonlOutput(finalPath, tmpPath, createWriteStream(tmpPath, { encoding: "utf8" }));
    OPEN_OUTPUTS.add(out);
    return out;
  }

  /** Stop writing and remove the `.incomplete` file. */
  async discard(): Promise<void> {
    OPEN_OUTPUTS.delete(this);
    if (!this.stream.writableFinished) {
      this.stream.end();
      await once(this.stream, "close").catch(() => undefined);
    }
    await rm(this.tmpPath, { force: true });
  }

  async write(row: unknown): Promise<void> {
    this.rows += 1;
    if (!this.stream.write(`${JSON.stringify(row)}\n`)) await once(this.stream, "drain");
  }

  /** Close; move into place when `keep`, else remove it. Returns its final path (which exists only when kept). */
  async close(keep: boolean): Promise<string> {
    OPEN_OUTPUTS.delete(this);
    this.stream.end();
    await once(this.stream, "finish");
    if (!keep) {
      await rm(this.tmpPath, { force: true });
      return this.finalPath;
    }
    await rename(this.tmpPath, this.finalPath);
    return this.finalPath;
  }
}

/** Write a small JSON file (summaries, dataset_info.json), creating the folder. */
export async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`, "utf8");
}

/** Exit code convention of every bridge command: 0 clean, 1 problems (unless allowed), 2 unusable input. */
export function exitCodeFor(problems: number, allowProblems: boolean): number {
  return problems > 0 && !allowProblems ? 1 : 0;
}

/** Options every command that writes training rows (sft, grpo, traj) shares. */
export type TrainingRowOptions = {
  outDir: string;
  allowProblems: boolean;
  /** Write rows from unreviewed model output (an export made with --status all) anyway. */
  allowUnreviewed: boolean;
  /** Where the output folder will be on the training machine: rows then hold absolute paths under it. */
  imageRoot?: string;
};

/**
 * Why rows may not be written: some come from model output nobody reviewed (trajectories neither
 * submitted nor approved, or steps without a verdict). Training on them teaches the model its own
 * mistakes, so it takes --allow-unreviewed. Undefined when there is nothing to refuse.
 */
export function unreviewedRefusal(
  unreviewedRows: number,
  exportStatus: string | undefined,
  allowUnreviewed: boolean,
  noun = "rows",
): string | undefined {
  if (unreviewedRows === 0 || allowUnreviewed) return undefined;
  const made = exportStatus ? ` (the export was made with --status ${exportStatus})` : "";
  return `refused: ${unreviewedRows} ${noun} are unreviewed model output${made}; export approved work (--status approved), or pass --allow-unreviewed to train on them anyway`;
}

/**
 * The end every training-row command shares (sft, grpo, traj, dpo, critic, prm): the refusal of unreviewed rows
 * (logged as `bridge <command>: refused: …`), the exit code, and the rows file kept under its final name only
 * when the run is clean (else removed: no half-made rows file is left). `noun` names the rows in the refusal ("pairs", "steps").
 */
export async function finishTrainingRows(
  command: string,
  run: {
    exp: { manifest: { filters?: { status?: string } | null } };
    log: RunLog;
    /** The rows file (JSONL, or grpo's verl parquet). */
    out: { close(keep: boolean): Promise<string> };
    unreviewed: number;
    opts: Pick<TrainingRowOptions, "allowProblems" | "allowUnreviewed">;
    noun?: string;
  },
): Promise<{ exportStatus: string | null; refused: string | undefined; exitCode: number; file: string }> {
  const exportStatus = run.exp.manifest.filters?.status ?? null;
  const refused = unreviewedRefusal(run.unreviewed, exportStatus ?? undefined, run.opts.allowUnreviewed, run.noun);
  if (refused) run.log.info(`bridge ${command}: ${refused}`);
  const exitCode = trainingExitCode(run.log.problems, run.opts.allowProblems, refused);
  const file = await run.out.close(exitCode === 0);
  return { exportStatus, refused, exitCode, file };
}

/** Write `<outDir>/<dataset>.summary.json`: the summary and the first problems the run met. */
export async function writeSummary(outDir: string, dataset: string, summary: object, log: RunLog): Promise<void> {
  await writeJson(path.join(outDir, `${dataset}.summary.json`), { ...summary, firstProblems: log.sample });
}

/** Exit code of a training-row command: problems (unless allowed) or a refusal make it 1. */
export function trainingExitCode(problems: number, allowProblems: boolean, refusal: string | undefined): number {
  return refusal !== undefined ? 1 : exitCodeFor(problems, allowProblems);
}

/** Steps and trajectories of held-out evaluation sets in an export, and the sets' labels ("name v2"), sorted. */
export type HeldOutCount = { trajectories: number; steps: number; sets: string[] };

/**
 * Count the held-out trajectories of an export from its lines' own `heldOut` marks (not the manifest,
 * which a hand-made or edited folder may lack). Lines that do not parse are left to the command's reader.
 */
export async function countHeldOut(exp: ExportDir): Promise<HeldOutCount> {
  const lines = createInterface({ input: createReadStream(exp.trajectoriesPath, "utf8"), crlfDelay: Infinity });
  const sets = new Set<string>();
  let trajectories = 0;
  let steps = 0;
  for await (const line of lines) {
    if (!line.includes('"heldOut"')) continue; // most lines: no parse needed
    let t: { heldOut?: unknown; steps?: unknown };
    try {
      t = JSON.parse(line) as typeof t;
    } catch {
      continue;
    }
    if (!Array.isArray(t.heldOut) || t.heldOut.length === 0) continue;
    trajectories += 1;
    steps += Array.isArray(t.steps) ? t.steps.length : 0;
    for (const label of t.heldOut) sets.add(String(label));
  }
  return { trajectories, steps, sets: [...sets].sort() };
}

/**
 * Why a training command may not run: the export holds steps of evaluation sets marked held out, and
 * training on them would make the evaluation measure memory. Undefined when there are none or when
 * --allow-held-out is given.
 */
export function heldOutRefusal(count: HeldOutCount, allowHeldOut: boolean): string | undefined {
  if (count.steps === 0 || allowHeldOut) return undefined;
  return `refused: ${count.steps} steps (${count.trajectories} trajectories) belong to held-out evaluation sets (${count.sets.join(", ")}); export without them (a release leaves them out), or pass --allow-held-out to train on them anyway`;
}
