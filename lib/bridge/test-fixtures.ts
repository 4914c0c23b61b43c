// Test helpers: a small real export folder (real cookbook screenshots, synthetic trajectories) in a temp dir.
import { EXPORT_FORMAT } from "@/lib/domain/export-manifest";
import { createHash } from "node:crypto";
import { mkdtemp, mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { COOKBOOK_DIR, COOKBOOK_EN_PNG, COOKBOOK_ZH_PNG } from "@/fixtures";
import type { Box } from "@/lib/domain/geometry";
import type { ToolCall } from "@/lib/domain/tool-call";
import type { CanonicalStep, CanonicalTrajectory, Verdict } from "@/lib/domain/trajectory";
import type { BridgeIo } from "./output";

/** Reference texts (cookbook prompts, chat template) in the repository's fixtures. */
export const REFERENCE_DIR = COOKBOOK_DIR;
export const EN_SCREENSHOT = COOKBOOK_EN_PNG; // 1080x2400
export const ZH_SCREENSHOT = COOKBOOK_ZH_PNG; // 720x1280

export type Shot = { sha256: string; width: number; height: number; file: string; bytes: Buffer };

export async function loadShot(file: string, width: number, height: number): Promise<Shot> {
  const bytes = await readFile(file);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { sha256, width, height, file: `screenshots/${sha256}.png`, bytes };
}

export function makeStep(
  index: number,
  shot: Shot,
  toolCall: ToolCall,
  opts: { verdict?: Verdict; box?: Box | null; candidateBoxes?: Box[]; thought?: string; clearAction?: string } = {},
): CanonicalStep {
  const thought = opts.thought ?? `State ${index}. Next action ${index}. Purpose ${index}.`;
  return {
    index,
    screenshot: { sha256: shot.sha256, width: shot.width, height: shot.height, file: shot.file },
    original: { toolCall, response: `<think>model ${index}</think>` },
    thought: { state: `State ${index}.`, nextAction: `Next action ${index}.`, purpose: `Purpose ${index}.`, text: thought },
    clearAction: opts.clearAction ?? `Do step ${index}`,
    toolCall,
    box: opts.box ?? null,
    candidateBoxes: opts.candidateBoxes ?? [],
    verdict: opts.verdict ?? "good",
  };
}

export function makeTrajectory(
  steps: CanonicalStep[],
  opts: Partial<Pick<CanonicalTrajectory, "id" | "app" | "instruction" | "cutAfter" | "isDiscarded" | "outcome">> = {},
): CanonicalTrajectory {
  return {
    format: "trajectory-studio/v1",
    id: opts.id,
    app: opts.app ?? "Files",
    instruction: opts.instruction ?? "Do the thing",
    source: "studio",
    outcome: opts.outcome === undefined ? "success" : opts.outcome,
    isDiscarded: opts.isDiscarded ?? false,
    cutAfter: opts.cutAfter ?? null,
    steps,
  };
}

/**
 * Write an export folder: manifest.json, trajectories.jsonl (one JSON per line, or raw strings as
 * given) and screenshots/. `omitShots` leaves chosen screenshots out of the folder (but in the manifest).
 */
export async function writeExport(
  trajectories: (CanonicalTrajectory | string)[],
  shots: Shot[],
  opts: { omitShots?: string[]; dir?: string; filters?: { status: string } } = {},
): Promise<string> {
  const dir = opts.dir ?? (await mkdtemp(path.join(os.tmpdir(), "bridge-export-")));
  await mkdir(path.join(dir, "screenshots"), { recursive: true });
  const files: Record<string, string> = {};
  for (const s of shots) {
    files[s.file] = s.sha256;
    if (!opts.omitShots?.includes(s.sha256)) await writeFile(path.join(dir, s.file), s.bytes);
  }
  const lines = trajectories.map((t) => (typeof t === "string" ? t : JSON.stringify(t))).join("\n");
  await writeFile(path.join(dir, "trajectories.jsonl"), `${lines}\n`);
  files["trajectories.jsonl"] = createHash("sha256").update(lines).digest("hex");
  const manifest = {
    format: EXPORT_FORMAT,
    ...(opts.filters ? { filters: opts.filters } : {}),
    counts: { trajectories: trajectories.length },
    files,
  };
  await writeFile(path.join(dir, "manifest.json"), JSON.stringify(manifest, null, 2));
  return dir;
}

export async function tempDir(prefix = "bridge-out-"): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/** An io that records what the CLI prints. */
export function captureIo(): BridgeIo & { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    out: () => out,
    err: () => err,
  };
}

export async function readJsonl(file: string): Promise<unknown[]> {
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as unknown);
}

export const EN_INSTRUCTION = "Open the file manager app and view the au_uu_SzH3yR2.mp3 file in MUSIC Folder";
export const ZH_INSTRUCTION = "在盒马中,打开购物车，结算（到付款页面即可）";

/**
 * The standard fixture:
 * - traj-en (1080x2400): 0 open File Manager; 1 click (925, 405) = cookbook (935, 406) at default max_pixels,
 *   box; 2 HARMFUL swipe; 3 Back (recovery); 4 terminate success.
 * - traj-zh (720x1280): 0 click (632, 1088) = cookbook (639, 1095); 1 type; 2 click; cut after step 0.
 * - traj-discarded: one step, discarded.
 */
export async function standardExport(): Promise<{ dir: string; en: Shot; zh: Shot }> {
  const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
  const zh = await loadShot(ZH_SCREENSHOT, 720, 1280);
  const trajectories = [
    makeTrajectory(
      [
        makeStep(0, en, { action: "open", text: "File Manager" }),
        makeStep(
          1,
          en,
          { action: "click", coordinate: [925, 405] },
          { box: [850, 350, 1000, 460], candidateBoxes: [[0, 300, 1080, 500]], verdict: "corrected" },
        ),
        makeStep(2, en, { action: "swipe", coordinate: [540, 1800], coordinate2: [540, 600] }, { verdict: "harmful" }),
        makeStep(3, en, { action: "system_button", button: "Back" }, { verdict: "neutral" }),
        makeStep(4, en, { action: "terminate", status: "success" }),
      ],
      { id: "traj-en", instruction: EN_INSTRUCTION, app: "File Manager" },
    ),
    makeTrajectory(
      [
        makeStep(
          0,
          zh,
          { action: "click", coordinate: [632, 1088] },
          { box: [600, 1050, 680, 1120], thought: "当前在首页。点击购物车。以便结算。", clearAction: "点击购物车" },
        ),
        makeStep(1, zh, { action: "type", text: "牛奶" }),
        makeStep(2, zh, { action: "click", coordinate: [100, 100] }),
      ],
      { id: "traj-zh", instruction: ZH_INSTRUCTION, app: "盒马", cutAfter: 0 },
    ),
    makeTrajectory([makeStep(0, en, { action: "wait", time: 2 })], { id: "traj-discarded", isDiscarded: true }),
  ];
  const dir = await writeExport(trajectories, [en, zh]);
  return { dir, en, zh };
}
