import { createReadStream } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { z } from "zod";
import { pngSize } from "@/lib/domain/png";
import { exportFolderManifestSchema, type ExportFolderManifest } from "@/lib/domain/export-manifest";
import { canonicalTrajectorySchema, type CanonicalStep, type CanonicalTrajectory } from "@/lib/domain/trajectory";

/** An export folder's manifest as the bridge reads it (lib/domain/export-manifest.ts: the one schema). */
export type Manifest = ExportFolderManifest;

/** An opened export folder. `dir` is absolute. */
export type ExportDir = { dir: string; manifest: Manifest; trajectoriesPath: string };

/** An input as a whole is unusable (no manifest, wrong format, no predictions file): nothing can be converted. */
export class ExportError extends Error {}

/** Open `<dir>/manifest.json` and check the layout; throws ExportError naming the file and field. */
export async function openExport(dir: string): Promise<ExportDir> {
  const abs = path.resolve(dir);
  const manifestPath = path.join(abs, "manifest.json");
  let text: string;
  try {
    text = await readFile(manifestPath, "utf8");
  } catch {
    throw new ExportError(`${manifestPath}: not found (is ${abs} a Trajectory Studio export folder?)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ExportError(`${manifestPath}: not valid JSON (${(e as Error).message})`);
  }
  const parsed = exportFolderManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ExportError(`${manifestPath}: ${issue?.path.join(".") || "manifest"}: ${issue?.message ?? "invalid"}`);
  }
  const trajectoriesPath = path.join(abs, "trajectories.jsonl");
  try {
    await stat(trajectoriesPath);
  } catch {
    throw new ExportError(`${trajectoriesPath}: not found`);
  }
  return { dir: abs, manifest: parsed.data, trajectoriesPath };
}

/** Where a row came from, for problem reports. `line` is 1-based in trajectories.jsonl. */
export type Where = { line: number; trajectory: string; step?: number };

/**
 * One thing that stopped a row (or a whole trajectory) from being written. `file` names the input
 * the line number refers to when it is not trajectories.jsonl (e.g. a predictions file).
 */
export type BridgeProblem = Where & { message: string; file?: string };

/**
 * `trajectories.jsonl:12 trajectory t-1 step 3: …`. Steps of trajectories.jsonl are numbered from 1,
 * as the editor shows them (`step` holds the 0-based index); a line of another file (predictions)
 * keeps that file's own step value.
 */
export function formatBridgeProblem(p: BridgeProblem): string {
  const step = p.step === undefined ? "" : p.file === undefined ? ` step ${p.step + 1}` : ` step ${p.step}`;
  return `${p.file ?? "trajectories.jsonl"}:${p.line} trajectory ${p.trajectory}${step}: ${p.message}`;
}

export type TrajectoryRecord =
  | {
      ok: true;
      line: number;
      /** 0-based position among the file's trajectories (non-blank lines). */
      ordinal: number;
      /** The trajectory's id, or `#<ordinal>` when it has none: how problems and predictions name it. */
      key: string;
      trajectory: CanonicalTrajectory;
    }
  | { ok: false; problem: BridgeProblem; ordinal: number };

/**
 * Stream trajectories.jsonl one line at a time (memory stays bounded by the longest line).
 * Each line is parsed with canonicalTrajectorySchema; a bad line yields a problem, never a throw.
 */
export async function* readTrajectories(exp: ExportDir): AsyncGenerator<TrajectoryRecord> {
  const lines = createInterface({ input: createReadStream(exp.trajectoriesPath, { encoding: "utf8" }), crlfDelay: Infinity });
  let line = 0;
  let ordinal = -1;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === "") continue;
    ordinal += 1;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      yield { ok: false, ordinal, problem: { line, trajectory: `#${ordinal}`, message: `not valid JSON (${(e as Error).message})` } };
      continue;
    }
    const idGuess = z.object({ id: z.string() }).safeParse(json);
    const key = idGuess.success ? idGuess.data.id : `#${ordinal}`;
    const parsed = canonicalTrajectorySchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const stepIndex = issue?.path[0] === "steps" && typeof issue.path[1] === "number" ? issue.path[1] : undefined;
      yield {
        ok: false,
        ordinal,
        problem: {
          line,
          trajectory: key,
          step: stepIndex,
          message: `${issue?.path.join(".") || "trajectory"}: ${issue?.message ?? "invalid"}`,
        },
      };
      continue;
    }
    const wrongIndex = parsed.data.steps.findIndex((s, i) => s.index !== i);
    if (wrongIndex >= 0) {
      yield {
        ok: false,
        ordinal,
        problem: {
          line,
          trajectory: key,
          step: wrongIndex,
          message: `steps[${wrongIndex}].index is ${parsed.data.steps[wrongIndex]!.index}, expected ${wrongIndex}`,
        },
      };
      continue;
    }
    yield { ok: true, line, ordinal, key, trajectory: parsed.data };
  }
}

const SCREENSHOT_FILE = /^screenshots\/([0-9a-f]{64})\.(png|jpe?g|webp)$/;

/**
 * The absolute path of a step's screenshot, after checking it is the file the step names
 * (`screenshots/<sha256>.<ext>`), listed in the manifest, present, and (for PNG) of the declared
 * width x height in original pixels. Returns an error message instead of throwing.
 */
export async function resolveScreenshot(
  exp: ExportDir,
  step: CanonicalStep,
): Promise<{ ok: true; path: string } | { ok: false; message: string }> {
  const ref = step.screenshot;
  if (!ref.file) return { ok: false, message: "screenshot.file is missing" };
  const m = SCREENSHOT_FILE.exec(ref.file);
  if (!m) return { ok: false, message: `screenshot.file "${ref.file}" is not screenshots/<sha256>.png` };
  if (m[1] !== ref.sha256) return { ok: false, message: `screenshot.file "${ref.file}" does not match screenshot.sha256 ${ref.sha256}` };
  if (!(ref.file in exp.manifest.files)) return { ok: false, message: `${ref.file} is not listed in manifest.json` };
  const abs = path.join(exp.dir, ref.file);
  const size = await readPngSize(abs);
  if (size === "missing") return { ok: false, message: `${ref.file} is missing from the export folder` };
  if (size && (size.width !== ref.width || size.height !== ref.height)) {
    return { ok: false, message: `${ref.file} is ${size.width}x${size.height} but the step says ${ref.width}x${ref.height}` };
  }
  return { ok: true, path: abs };
}

/** Width and height from a PNG's IHDR (24 bytes read); null when the file is not a PNG. */
async function readPngSize(file: string): Promise<{ width: number; height: number } | null | "missing"> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch {
    return "missing";
  }
  try {
    const buf = Buffer.alloc(24);
    const { bytesRead } = await handle.read(buf, 0, 24, 0);
    return pngSize(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
