import { existsSync, readFileSync } from "node:fs";
import sharp from "sharp";
import { MOBILE_R1_RELEASE_IMAGES, MOBILE_R1_RELEASE_JSONL } from "@/fixtures";
import { normalizeAction } from "@/lib/domain/normalize";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runBridge } from "./cli";
import { differsOnlyInWhitespaceOrPunctuation } from "./dpo";
import { PAIRED, pairedExport } from "./preference-fixtures";
import {
  captureIo,
  loadShot,
  makeStep,
  makeTrajectory,
  readJsonl,
  standardExport,
  tempDir,
  writeExport,
  EN_SCREENSHOT,
  type Shot,
} from "./test-fixtures";
import { llamaFactoryImage, llamaFactoryPairwise, msSwiftImage, msSwiftRlhfRow, type LlamaFactoryDatasetAttr } from "./trainer-loaders";

type Pair = { trajectory_id: string; step: number; changed: string[] };
type Msg = { role: string; content: string };

async function run(args: string[]) {
  const io = captureIo();
  const code = await runBridge(args, io);
  return { code, io };
}

const key = (t: string, s: number) => `${t}:${s}`;

describe("bridge dpo", () => {
  let exportDir: string;
  let swiftOut: string;
  let lfOut: string;
  let sftOut: string;
  let swiftRows: Record<string, unknown>[];
  let swiftIndex: Pair[];
  let sftRows: { messages: Msg[] }[];
  beforeAll(async () => {
    exportDir = (await pairedExport()).dir;
    [swiftOut, lfOut, sftOut] = await Promise.all([tempDir(), tempDir(), tempDir()]);
    const swift = await run(["dpo", exportDir, "--out", swiftOut, "--target", "ms-swift"]);
    expect(swift.io.err()).not.toContain("problem:");
    expect(swift.code).toBe(0);
    expect((await run(["dpo", exportDir, "--out", lfOut, "--target", "llamafactory"])).code).toBe(0);
    expect((await run(["sft", exportDir, "--out", sftOut, "--target", "ms-swift"])).code).toBe(0);
    swiftRows = (await readJsonl(path.join(swiftOut, "mobile_use_dpo.jsonl"))) as Record<string, unknown>[];
    swiftIndex = (await readJsonl(path.join(swiftOut, "mobile_use_dpo.steps.jsonl"))) as Pair[];
    sftRows = (await readJsonl(path.join(sftOut, "mobile_use_sft.jsonl"))) as { messages: Msg[] }[];
  });

  it("writes a pair for every step a person changed inside the cut, and for no other step", () => {
    expect(swiftIndex.map((p) => key(p.trajectory_id, p.step))).toEqual(PAIRED.changed.map(([t, s]) => key(t, s)));
    expect(swiftRows).toHaveLength(PAIRED.changed.length);
    expect(swiftIndex.find((p) => p.trajectory_id === "traj-a" && p.step === 1)!.changed).toEqual(["clearAction", "toolCall"]);
    const summary = JSON.parse(readFileSync(path.join(swiftOut, "mobile_use_dpo.summary.json"), "utf8")) as Record<string, unknown>;
    // traj-a 0, 3 and traj-b 0 unchanged; traj-a 2 harmful with nothing written instead; traj-b 1 the harmful pair.
    expect(summary).toMatchObject({ pairs: 4, unchangedSteps: 3, harmfulWithoutAlternative: 1, harmfulPairs: 1, problems: 0 });
  });

  it("loads through ms-swift's RLHF preprocessing: chosen is the last assistant turn, rejected differs, one image per tag", () => {
    for (const row of swiftRows) {
      const loaded = msSwiftRlhfRow(row);
      expect(loaded.turns.map((m) => m.role)).toEqual(["user", "assistant"]);
      expect(msSwiftImage(loaded.images[0] as string, "/", { ROOT_IMAGE_DIR: swiftOut }).bytes.length).toBeGreaterThan(1000);
    }
    // The trainer refuses a pair whose rejected answer equals the chosen one: the check itself must catch it.
    const same = { ...swiftRows[0]!, rejected_response: (swiftRows[0]!.messages as Msg[])[2]!.content };
    expect(() => msSwiftRlhfRow(same)).toThrow(/rejected_response/);
  });

  it("uses exactly the SFT row's prompt, and the SFT answer as chosen", () => {
    for (const [i, p] of swiftIndex.entries()) {
      const row = swiftRows[i]!.messages as Msg[];
      if (p.trajectory_id === "traj-b" && p.step === 1) continue; // harmful: no SFT row (checked below)
      const sft = sftRows.find((r) => r.messages[1]!.content === row[1]!.content && r.messages[0]!.content === row[0]!.content);
      expect(sft, key(p.trajectory_id, p.step)).toBeDefined();
      expect(row[2]!.content).toBe(sft!.messages[2]!.content);
    }
  });

  it("rejects the model's own response in the same frame and layout: the model's click converted to 1092x2408", () => {
    const i = swiftIndex.findIndex((p) => p.trajectory_id === "traj-a" && p.step === 1);
    const row = swiftRows[i]!;
    // (300, 1500) at 1080x2400 -> (303, 1505) in the resized frame; the correction (925, 405) -> (935, 406).
    expect(row.rejected_response).toBe(
      '<think>\nFile Manager is open. Tap the list. To see files.\n</think>\n<action>\nTap the list\n</action>\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [303, 1505]}}\n</tool_call>',
    );
    expect((row.messages as Msg[])[2]!.content).toContain(
      '<action>\nTap the MUSIC folder\n</action>\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [935, 406]}}',
    );
    const harmful = swiftRows[swiftIndex.findIndex((p) => p.trajectory_id === "traj-b")]!;
    expect(harmful.rejected_response).toContain('"text": "牛乃"');
    expect((harmful.messages as Msg[])[2]!.content).toContain('"text": "牛奶"');
  });

  it("loads through LLaMA-Factory's sharegpt ranking converter with its own dataset_info.json entry", async () => {
    const info = JSON.parse(readFileSync(path.join(lfOut, "dataset_info.json"), "utf8")) as Record<
      string,
      LlamaFactoryDatasetAttr & { file_name: string }
    >;
    const attr = info.mobile_use_dpo!;
    expect(attr.ranking).toBe(true);
    const rows = (await readJsonl(path.join(lfOut, attr.file_name))) as Record<string, unknown>[];
    expect(rows).toHaveLength(PAIRED.changed.length);
    for (const [i, row] of rows.entries()) {
      const ex = llamaFactoryPairwise(row, attr);
      expect(ex.prompt.map((m) => m.role)).toEqual(["user"]);
      expect(ex.system).toContain("# Tools");
      expect(ex.response.map((m) => m.role)).toEqual(["assistant", "assistant"]);
      expect(ex.response[0]!.content).not.toBe(ex.response[1]!.content);
      expect(llamaFactoryImage((ex.images as string[])[0]!, "/", { datasetDir: lfOut }).bytes.length).toBeGreaterThan(1000);
      // Same pairs as ms-swift's, in LLaMA-Factory's frame (its own resize of 1080x2400 at the default limits).
      expect(ex.response[1]!.content.split("<tool_call>")[0]).toBe((swiftRows[i]!.rejected_response as string).split("<tool_call>")[0]);
    }
    // Without ranking the same rows are abnormal examples: the converter check is not a formality.
    expect(() => llamaFactoryPairwise(rows[0]!, { ...attr, ranking: false })).toThrow();
  });

  it("--min-change leaves out the pair that differs only in punctuation", async () => {
    const out = await tempDir();
    expect((await run(["dpo", exportDir, "--out", out, "--target", "ms-swift", "--min-change"])).code).toBe(0);
    const index = (await readJsonl(path.join(out, "mobile_use_dpo.steps.jsonl"))) as Pair[];
    const [t, s] = PAIRED.punctuationOnly;
    expect(index.map((p) => key(p.trajectory_id, p.step))).toEqual(
      PAIRED.changed.filter(([a, b]) => !(a === t && b === s)).map(([a, b]) => key(a, b)),
    );
    const summary = JSON.parse(readFileSync(path.join(out, "mobile_use_dpo.summary.json"), "utf8")) as Record<string, unknown>;
    expect(summary.skippedMinChange).toBe(1);
  });

  it("--min-change compares without whitespace and punctuation, CJK punctuation included", () => {
    expect(differsOnlyInWhitespaceOrPunctuation("Finish the task", "Finish  the task.")).toBe(true);
    expect(differsOnlyInWhitespaceOrPunctuation("点击购物车", "点击购物车。")).toBe(true);
    expect(differsOnlyInWhitespaceOrPunctuation("[303, 1505]", "[935, 406]")).toBe(false);
  });

  it("--coords qwen3-rel1000 writes both sides in 0..1000", async () => {
    const out = await tempDir();
    expect((await run(["dpo", exportDir, "--out", out, "--target", "ms-swift", "--coords", "qwen3-rel1000"])).code).toBe(0);
    const rows = (await readJsonl(path.join(out, "mobile_use_dpo.jsonl"))) as Record<string, unknown>[];
    // (300, 1500) of 1080x2400 -> (278, 625); (925, 405) -> (856, 169)
    expect(rows[0]!.rejected_response).toContain('"coordinate": [278, 625]');
    expect((rows[0]!.messages as Msg[])[2]!.content).toContain('"coordinate": [856, 169]');
  });
});

describe("bridge dpo on a source whose model wrote no thought or clear action", () => {
  it("pairs only the steps whose call a person changed; the rejected side keeps the person's thought, the model's call", async () => {
    const std = await standardExport();
    const out = await tempDir();
    const none = await run(["dpo", std.dir, "--out", out, "--target", "ms-swift"]);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.io.out())).toMatchObject({ pairs: 0, problems: 0 });

    const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
    const moved = makeStep(0, en, { action: "click", coordinate: [925, 405] }, { verdict: "corrected" });
    moved.original = { toolCall: { action: "click", coordinate: [100, 100] } };
    const dir = await writeExport([makeTrajectory([moved], { id: "bare" })], [en]);
    const out2 = await tempDir();
    expect((await run(["dpo", dir, "--out", out2, "--target", "ms-swift"])).code).toBe(0);
    const [row] = (await readJsonl(path.join(out2, "mobile_use_dpo.jsonl"))) as { messages: Msg[]; rejected_response: string }[];
    expect(row!.rejected_response).toBe(row!.messages[2]!.content.replace("[935, 406]", "[101, 100]"));
  });
});

describe("bridge dpo --prompt source (the Mobile-R1 release's own layout)", () => {
  it("writes chosen in the trajectory's layout and rejected as the model's imported response, byte for byte", async () => {
    type ReleaseStep = { image: string; thought: string; subtask: string; action: string; response: string };
    const row = JSON.parse(readFileSync(MOBILE_R1_RELEASE_JSONL, "utf8").split("\n")[0]!) as {
      instruction: string;
      system: string;
      trajectory: ReleaseStep[];
    };
    const shots: Shot[] = [];
    const steps = [];
    for (const [i, s] of row.trajectory.entries()) {
      const file = path.join(MOBILE_R1_RELEASE_IMAGES, s.image);
      const { width, height } = await sharp(file).metadata();
      const shot = await loadShot(file, width!, height!);
      shots.push(shot);
      const call = normalizeAction(s.action);
      if (!call.ok) throw new Error(`fixture step ${i}`);
      const original = { response: s.response, thought: s.thought, clearAction: s.subtask, toolCall: call.call, rawAction: s.action };
      steps.push({ ...makeStep(i, shot, call.call, { thought: s.thought, clearAction: s.subtask }), original });
    }
    // A person rewrites the clear action of the first step without a point (nothing to convert: the model's response stays verbatim).
    const k = row.trajectory.findIndex((s) => !s.action.includes('"coordinate"'));
    steps[k] = { ...steps[k]!, clearAction: `${steps[k]!.clearAction}（改写）`, verdict: "corrected" as const };
    const t = { ...makeTrajectory(steps, { instruction: row.instruction }), source: "mobile-r1" as const, systemPrompt: row.system };
    const dir = await writeExport([t], shots);
    const out = await tempDir();
    const r = await run(["dpo", dir, "--out", out, "--target", "ms-swift", "--prompt", "source"]);
    expect(r.io.err()).not.toContain("problem:");
    const rows = (await readJsonl(path.join(out, "mobile_use_dpo.jsonl"))) as { messages: Msg[]; rejected_response: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.messages[0]).toEqual({ role: "system", content: row.system });
    expect(rows[0]!.rejected_response).toBe(row.trajectory[k]!.response);
    expect(rows[0]!.messages[2]!.content).toBe(
      row.trajectory[k]!.response.replace(`\n${row.trajectory[k]!.subtask}\n`, `\n${row.trajectory[k]!.subtask}（改写）\n`),
    );
  });
});

describe("bridge dpo on unreviewed work", () => {
  it("refuses pairs from trajectories nobody submitted (an export made with --status all), unless --allow-unreviewed", async () => {
    const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
    const moved = makeStep(0, en, { action: "click", coordinate: [925, 405] }, { verdict: "corrected" });
    moved.original = { toolCall: { action: "click", coordinate: [100, 100] } };
    const t = { ...makeTrajectory([moved], { id: "raw" }), status: "in_progress" as const };
    const dir = await writeExport([t], [en], { filters: { status: "all" } });
    const out = await tempDir();
    const refused = await run(["dpo", dir, "--out", out, "--target", "ms-swift"]);
    expect(refused.code).toBe(1);
    expect(refused.io.err()).toContain("refused: 1 pairs are unreviewed model output (the export was made with --status all)");
    expect(existsSync(path.join(out, "mobile_use_dpo.jsonl.incomplete"))).toBe(false);
    expect(existsSync(path.join(out, "mobile_use_dpo.jsonl"))).toBe(false);
    expect((await run(["dpo", dir, "--out", await tempDir(), "--target", "ms-swift", "--allow-unreviewed"])).code).toBe(0);
  });
});
