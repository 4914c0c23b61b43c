import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { runBridge } from "./cli";
import { balancedCounts, markRadius, type CriticRecord, type CriticSummary } from "./critic";
import { PAIRED, pairedExport } from "./preference-fixtures";
import type { PrmRow } from "./prm";
import { captureIo, EN_SCREENSHOT, readJsonl, tempDir } from "./test-fixtures";

async function run(args: string[]) {
  const io = captureIo();
  const code = await runBridge(args, io);
  return { code, io };
}

/** RGB of one pixel. */
async function pixel(file: string, x: number, y: number): Promise<[number, number, number]> {
  const { data } = await sharp(file)
    .extract({ left: Math.round(x), top: Math.round(y), width: 1, height: 1 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [data[0]!, data[1]!, data[2]!];
}

describe("bridge prm", () => {
  let rows: PrmRow[];
  beforeAll(async () => {
    const { dir } = await pairedExport();
    const out = await tempDir();
    const r = await run(["prm", dir, "--out", out]);
    expect(r.io.err()).not.toContain("problem:");
    expect(r.code).toBe(0);
    rows = (await readJsonl(path.join(out, "mobile_use_prm.jsonl"))) as PrmRow[];
  });

  it("labels every kept step +1 / 0 / -1 and carries the trajectory's first error (1-based)", () => {
    for (const [id, labels] of Object.entries(PAIRED.labels)) {
      const mine = rows.filter((r) => r.trajectory_id === id);
      expect(
        mine.map((r) => r.process_label),
        id,
      ).toEqual(labels);
      expect(new Set(mine.map((r) => r.first_error))).toEqual(new Set([PAIRED.firstError[id as keyof typeof PAIRED.firstError]]));
      expect(mine.map((r) => r.annotation)).toEqual(labels.map((l) => (l === 1 ? "GOOD" : l === 0 ? "NEUTRAL" : "HARMFUL")));
    }
    expect(rows.some((r) => r.trajectory_id === "traj-c")).toBe(false);
  });

  it("shows the model's own action and history (what was executed), not the correction", () => {
    const step1 = rows.find((r) => r.trajectory_id === "traj-a" && r.step === 1)!;
    expect(step1.model_action).toBe('{"action": "click", "coordinate": [303, 1505]}');
    expect(step1.messages[2]!.content).toContain("Tap the list");
    const step2 = rows.find((r) => r.trajectory_id === "traj-a" && r.step === 2)!;
    expect(step2.messages[1]!.content).toContain(
      'Step 2: {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [303, 1505]}}; <image>',
    );
    expect(step2.images).toHaveLength(1);
  });
});

describe("bridge critic", () => {
  let exportDir: string;
  let out: string;
  let records: CriticRecord[];
  let summary: CriticSummary;
  beforeAll(async () => {
    exportDir = (await pairedExport()).dir;
    out = await tempDir();
    const r = await run(["critic", exportDir, "--out", out]);
    expect(r.io.err()).not.toContain("problem:");
    expect(r.code).toBe(0);
    records = (await readJsonl(path.join(out, "gui_critic.jsonl"))) as CriticRecord[];
    summary = JSON.parse(r.io.out()) as CriticSummary;
  });

  it("scores the model's right actions and the corrections Correct, its wrong actions Incorrect", () => {
    const view = records.map((r) => `${r.trajectory_id}:${r.step}:${r.source}:${r.score}`);
    expect(view).toEqual([
      "traj-a:0:model:Correct",
      "traj-a:1:model:Incorrect",
      "traj-a:1:correction:Correct",
      "traj-a:2:model:Incorrect",
      "traj-a:3:model:Correct",
      "traj-a:4:model:Correct",
      "traj-a:5:model:Correct",
      "traj-b:0:model:Correct",
      "traj-b:1:model:Incorrect",
      "traj-b:1:correction:Correct",
    ]);
    expect(summary).toMatchObject({ records: 10, positives: 7, negatives: 3 });
    expect(summary.byActionType.click).toEqual({ positives: 3, negatives: 1 });
    expect(summary.byApp["盒马"]).toEqual({ positives: 2, negatives: 1 });
  });

  it("answers in GUI-Critic-R1's layout, worded from the step: observation, result, critique, the corrected clear action", () => {
    const wrong = records.find((r) => r.trajectory_id === "traj-a" && r.step === 1 && r.source === "model")!;
    expect(wrong.problem.startsWith("<image>")).toBe(true);
    expect(wrong.problem).toContain("Open the file manager and view the mp3 file in MUSIC");
    expect(wrong.problem).toContain(" Step 1: Open File Manager\n;");
    expect(wrong.problem).toContain('Action: {"action": "click", "coordinate": [300, 1500]}');
    expect(wrong.solution).toMatch(
      /^<thinking>\n\*\*Observation\*\*: File Manager is open\.\n\*\*Possible Result\*\*: after this action the next screen showed: The MUSIC folder is open\.\n\*\*Critique\*\*: A reviewer replaced it with click \(925, 405\)\.\n<\/thinking>\n<score>\nIncorrect\n<\/score>\n<suggestion>\nTap the MUSIC folder\n<\/suggestion>$/,
    );
    const harmful = records.find((r) => r.trajectory_id === "traj-a" && r.step === 2)!;
    // Nobody wrote an alternative: the suggestion is the recovery the trajectory took next.
    expect(harmful.solution).toContain("A reviewer marked this action harmful.");
    expect(harmful.solution).toContain("<suggestion>\nGo back\n</suggestion>");
  });

  it("draws a click as a translucent red circle at its point, on a copy at the screenshot's original size", async () => {
    const rec = records.find((r) => r.trajectory_id === "traj-a" && r.step === 1 && r.source === "model")!;
    const drawn = path.join(out, rec.images[0]!);
    expect(await sharp(drawn).metadata()).toMatchObject({ width: 1080, height: 2400 });
    const [r, g, b] = await pixel(drawn, 300, 1500);
    const [r0, g0, b0] = await pixel(EN_SCREENSHOT, 300, 1500);
    // Translucent: red pulled up, the screenshot still showing through (not pure red).
    expect(r).toBeGreaterThan(r0 * 0.55 + 255 * 0.45 - 3);
    expect(g).toBeLessThan(g0 * 0.55 + 3);
    expect(b).toBeLessThan(b0 * 0.55 + 3);
    expect([r, g, b]).not.toEqual([255, 0, 0]);
    // Away from the mark the copy is the screenshot.
    const far = 1500 - 3 * markRadius({ width: 1080, height: 2400 });
    expect(await pixel(drawn, 300, far)).toEqual(await pixel(EN_SCREENSHOT, 300, far));
    const correction = records.find((r) => r.trajectory_id === "traj-a" && r.step === 1 && r.source === "correction")!;
    // The correction's circle sits on its own point (925, 405), where the screenshot is (255, 57, 143).
    const [cr, cg, cb] = await pixel(path.join(out, correction.images[0]!), 925, 405);
    const [, og, ob] = await pixel(EN_SCREENSHOT, 925, 405);
    expect(cr).toBeGreaterThan(250);
    expect(cg).toBeLessThan(og * 0.55 + 3);
    expect(cb).toBeLessThan(ob * 0.55 + 3);
    expect(await pixel(path.join(out, correction.images[0]!), 300, 1500)).toEqual(await pixel(EN_SCREENSHOT, 300, 1500));
  });

  it("draws a swipe as an arrow along the finger's path, and leaves an action without a point undrawn", async () => {
    const swipe = records.find((r) => r.trajectory_id === "traj-a" && r.step === 2)!;
    const file = path.join(out, swipe.images[0]!);
    // The screenshot is black along the finger's path: the arrow turns it red.
    for (const y of [700, 1200, 1700]) {
      const [r, g] = await pixel(file, 540, y);
      const [r0, g0] = await pixel(EN_SCREENSHOT, 540, y);
      expect(r, `y ${y}`).toBeGreaterThan(r0 + 100);
      expect(g).toBeLessThanOrEqual(g0);
    }
    expect(await pixel(file, 200, 1200)).toEqual(await pixel(EN_SCREENSHOT, 200, 1200));
    const open = records.find((r) => r.trajectory_id === "traj-a" && r.step === 0)!;
    expect(readFileSync(path.join(out, open.images[0]!)).equals(readFileSync(EN_SCREENSHOT))).toBe(true);
  });

  it("--balance keeps the requested ratio with the seed, and says so per action type", async () => {
    const one = await tempDir();
    const r1 = await run(["critic", exportDir, "--out", one, "--balance", "1:1", "--seed", "7"]);
    expect(r1.code).toBe(0);
    const s1 = JSON.parse(r1.io.out()) as CriticSummary;
    expect(s1).toMatchObject({ positives: 3, negatives: 3, records: 6, candidates: { positives: 7, negatives: 3 }, balance: "1:1" });
    const again = await tempDir();
    await run(["critic", exportDir, "--out", again, "--balance", "1:1", "--seed", "7"]);
    expect(readFileSync(path.join(again, "gui_critic.jsonl"), "utf8")).toBe(readFileSync(path.join(one, "gui_critic.jsonl"), "utf8"));
    const counted = Object.values(s1.byActionType).reduce((n, e) => n + e.positives + e.negatives, 0);
    expect(counted).toBe(6);

    const two = await tempDir();
    const s2 = JSON.parse((await run(["critic", exportDir, "--out", two, "--balance", "2:1"])).io.out()) as CriticSummary;
    expect([s2.positives, s2.negatives]).toEqual([6, 3]);
    expect(balancedCounts(7, 3, { positives: 1, negatives: 2 })).toEqual({ positives: 2, negatives: 3 });
    expect(balancedCounts(100, 40, { positives: 1, negatives: 1 })).toEqual({ positives: 40, negatives: 40 });
  });

  it("refuses a malformed --balance", async () => {
    const r = await run(["critic", exportDir, "--out", await tempDir(), "--balance", "1-1"]);
    expect(r.code).toBe(2);
    expect(r.io.err()).toContain("--balance must be <positives>:<negatives>");
  });
});

describe("process labels on grpo rows", () => {
  it("verl: extra_info carries process_label and first_error in the parquet (null where a trajectory has none)", async () => {
    const { asyncBufferFromFile, parquetReadObjects } = await import("hyparquet");
    const { dir } = await pairedExport();
    const out = await tempDir();
    expect((await run(["grpo", dir, "--out", out, "--target", "verl"])).code).toBe(0);
    const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(path.join(out, "mobile_use_grpo.parquet")) })) as {
      extra_info: { trajectory_id: string; process_label: number | null; first_error: number | null };
    }[];
    for (const [id, labels] of Object.entries(PAIRED.labels)) {
      const mine = rows.filter((r) => r.extra_info.trajectory_id === id).map((r) => r.extra_info);
      expect(mine.map((e) => e.process_label)).toEqual(labels);
      expect(mine.every((e) => e.first_error === PAIRED.firstError[id as keyof typeof PAIRED.firstError])).toBe(true);
    }
    // The standard export's Chinese trajectory has no wrong step: first_error is null, not 0.
    const { standardExport } = await import("./test-fixtures");
    const std = await standardExport();
    const out2 = await tempDir();
    expect((await run(["grpo", std.dir, "--out", out2, "--target", "verl"])).code).toBe(0);
    const rows2 = (await parquetReadObjects({ file: await asyncBufferFromFile(path.join(out2, "mobile_use_grpo.parquet")) })) as {
      extra_info: { trajectory_id: string; first_error: number | null };
    }[];
    expect(rows2.find((r) => r.extra_info.trajectory_id === "traj-zh")!.extra_info.first_error).toBeNull();
    expect(rows2.find((r) => r.extra_info.trajectory_id === "traj-en")!.extra_info.first_error).toBe(3);
  });
});
