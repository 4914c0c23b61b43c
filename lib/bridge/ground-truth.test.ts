// The prompt declares every action the rows use; self-contradicting ground truth and unreviewed
// model output never become training rows silently.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { actionsOfferedBy } from "@/lib/domain/prompt";
import { parseModelOutput } from "@/lib/domain/model-output";
import { emptyHints, measureTrajectory, usesAnswer, type TrainerHints } from "@/lib/domain/trainer-hints";
import { canonicalTrajectorySchema, type CanonicalTrajectory } from "@/lib/domain/trajectory";
import { runBridge } from "./cli";
import {
  captureIo,
  EN_SCREENSHOT,
  loadShot,
  makeStep,
  makeTrajectory,
  readJsonl,
  tempDir,
  writeExport,
  ZH_SCREENSHOT,
} from "./test-fixtures";

const messagesSchema = z.array(z.object({ role: z.string(), content: z.string() }));
/** Every `"action": "…"` a text names (history entries, targets). */
const actionsIn = (text: string) => [...text.matchAll(/"action": "([a-z_]+)"/g)].map((m) => m[1]!);

async function exportWithAnswer() {
  const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
  const zh = await loadShot(ZH_SCREENSHOT, 720, 1280);
  return writeExport(
    [
      makeTrajectory(
        [
          makeStep(0, en, { action: "open", text: "Music" }),
          makeStep(1, en, { action: "key", text: "volume_up" }),
          makeStep(2, en, { action: "answer", text: "The song is 3 minutes long." }),
          makeStep(3, en, { action: "terminate", status: "success" }),
        ],
        { id: "asks" },
      ),
      makeTrajectory(
        [
          makeStep(0, zh, { action: "click", coordinate: [632, 1088] }, { box: [600, 1050, 680, 1120] }),
          makeStep(1, zh, { action: "type", text: "牛奶" }),
        ],
        { id: "plain" },
      ),
    ],
    [en, zh],
  );
}

describe("the system prompt offers every action the rows use", () => {
  it("declares answer (UI-S1's action space) for an export whose targets answer, in every format", async () => {
    const dir = await exportWithAnswer();
    const out = await tempDir();
    expect(await runBridge(["sft", dir, "--out", out, "--target", "ms-swift"], captureIo())).toBe(0);
    expect(await runBridge(["grpo", dir, "--out", out, "--target", "ms-swift"], captureIo())).toBe(0);
    expect(await runBridge(["grpo", dir, "--out", out, "--target", "verl"], captureIo())).toBe(0);
    const sft = z.array(z.object({ messages: messagesSchema })).parse(await readJsonl(path.join(out, "mobile_use_sft.jsonl")));
    const grpo = z
      .array(z.object({ messages: messagesSchema, gt_action: z.string() }))
      .parse(await readJsonl(path.join(out, "mobile_use_grpo.jsonl")));
    const verl = (await parquetReadObjects({ file: await asyncBufferFromFile(path.join(out, "mobile_use_grpo.parquet")) })) as {
      prompt: z.infer<typeof messagesSchema>;
      reward_model: { ground_truth: string };
    }[];
    expect(sft).toHaveLength(6);
    expect(grpo).toHaveLength(6);
    expect(verl).toHaveLength(6);
    const rows = [
      ...sft.map((r) => ({ messages: r.messages, used: r.messages.slice(1).flatMap((m) => actionsIn(m.content)) })),
      ...grpo.map((r) => ({
        messages: r.messages,
        used: [...r.messages.slice(1).flatMap((m) => actionsIn(m.content)), (JSON.parse(r.gt_action) as { action: string }).action],
      })),
      ...verl.map((r) => ({
        messages: r.prompt,
        used: [
          ...r.prompt.slice(1).flatMap((m) => actionsIn(m.content)),
          (JSON.parse(r.reward_model.ground_truth) as { gt_action: { action: string } }).gt_action.action,
        ],
      })),
    ];
    for (const row of rows) {
      const offered = actionsOfferedBy(row.messages[0]!.content);
      expect(offered).toContain("answer");
      for (const a of row.used) expect(offered, `prompt lacks ${a}`).toContain(a);
    }
    // The answer target itself is a well-formed row the studio's own parser reads back.
    const answerRow = sft.find((r) => r.messages[2]!.content.includes('"action": "answer"'))!;
    const parsed = parseModelOutput(answerRow.messages[2]!.content);
    expect(parsed.toolCall).toEqual({ action: "answer", text: "The song is 3 minutes long." });
    const summary = JSON.parse(readFileSync(path.join(out, "mobile_use_sft.summary.json"), "utf8")) as {
      actionSpace: string;
      hints: TrainerHints;
    };
    expect(summary.actionSpace).toBe("ui-s1");
    // The exporter's measure (manifest.trainer) agrees when it measures with the space the bridge declares.
    const lines = (await readJsonl(path.join(dir, "trajectories.jsonl"))).map((t) => canonicalTrajectorySchema.parse(t));
    expect(lines.some(usesAnswer)).toBe(true);
    expect(lines.reduce((h, t) => measureTrajectory(h, t, "ui-s1"), emptyHints(summary.hints.maxPixels, summary.hints.minPixels))).toEqual(
      summary.hints,
    );
  });

  it("keeps the cookbook's nine actions when nothing answers", async () => {
    const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
    const dir = await writeExport(
      [makeTrajectory([makeStep(0, en, { action: "wait", time: 1 }), makeStep(1, en, { action: "terminate", status: "success" })])],
      [en],
    );
    const out = await tempDir();
    expect(await runBridge(["sft", dir, "--out", out, "--target", "ms-swift"], captureIo())).toBe(0);
    const rows = z.array(z.object({ messages: messagesSchema })).parse(await readJsonl(path.join(out, "mobile_use_sft.jsonl")));
    for (const r of rows) expect(actionsOfferedBy(r.messages[0]!.content)).not.toContain("answer");
  });
});

describe("ground truth that contradicts itself is a problem, not a row", () => {
  async function contradicting() {
    const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
    return writeExport(
      [
        makeTrajectory(
          [
            makeStep(0, en, { action: "open", text: "Files" }),
            makeStep(1, en, { action: "click", coordinate: [100, 100] }, { box: [850, 350, 1000, 460] }),
            makeStep(2, en, { action: "swipe", coordinate: [540, 2000], coordinate2: [540, 600] }, { box: [0, 0, 1080, 300] }),
            makeStep(3, en, { action: "type", text: "" }),
            makeStep(4, en, { action: "long_press", coordinate: [500, 500], time: 2 }, { box: [5000, 5000, 5100, 5100] }),
            makeStep(5, en, { action: "terminate", status: "success" }),
          ],
          { id: "self-contradicting" },
        ),
        makeTrajectory([makeStep(0, en, { action: "click", coordinate: [925, 405] }, { box: [850, 350, 1000, 460] })], { id: "clean" }),
      ],
      [en],
    );
  }

  it.each([
    ["sft", "ms-swift", "mobile_use_sft.jsonl"],
    ["grpo", "verl", "mobile_use_grpo.parquet"],
    ["traj", "ui-s1", "ui_s1_trajectories.jsonl"],
  ])("%s --target %s names each step (numbered from 1), exits 1 and writes nothing final", async (command, target, file) => {
    const dir = await contradicting();
    const out = await tempDir();
    const io = captureIo();
    expect(await runBridge([command, dir, "--out", out, "--target", target], io)).toBe(1);
    const err = io.err();
    expect(err).toContain(
      "trajectory self-contradicting step 2: ground truth contradicts itself: the click at (100, 100) lies outside the step's own target box [850, 350, 1000, 460]",
    );
    expect(err).toContain(
      "trajectory self-contradicting step 3: ground truth contradicts itself: the swipe start at (540, 2000) lies outside the step's own target box [0, 0, 1080, 300]",
    );
    expect(err).toContain("trajectory self-contradicting step 4: ground truth contradicts itself: the type action has no text to type");
    expect(err).toContain(
      "trajectory self-contradicting step 5: ground truth contradicts itself: the long press at (500, 500) lies outside the step's own target box [5000, 5000, 5100, 5100]; the target box [5000, 5000, 5100, 5100] lies outside the 1080x2400 screenshot",
    );
    expect(err).not.toContain("trajectory clean");
    expect(existsSync(path.join(out, file))).toBe(false);
    expect(existsSync(path.join(out, `${file}.incomplete`))).toBe(false);
  });

  it("--allow-problems writes the other rows only", async () => {
    const dir = await contradicting();
    const out = await tempDir();
    expect(await runBridge(["sft", dir, "--out", out, "--target", "ms-swift", "--allow-problems"], captureIo())).toBe(0);
    const rows = z.array(z.object({ messages: messagesSchema })).parse(await readJsonl(path.join(out, "mobile_use_sft.jsonl")));
    // Steps 1 (open) and 6 (terminate) of the first trajectory, and the clean click.
    expect(rows.map((r) => actionsIn(r.messages[2]!.content)[0])).toEqual(["open", "terminate", "click"]);
  });
});

describe("unreviewed model output is refused for training rows unless allowed", () => {
  async function statusAllExport() {
    const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
    const t = (id: string, status: CanonicalTrajectory["status"]) => ({
      ...makeTrajectory([makeStep(0, en, { action: "open", text: "Files" }), makeStep(1, en, { action: "terminate", status: "success" })], {
        id,
      }),
      status,
    });
    return writeExport([t("approved-1", "approved"), t("new-1", "new"), t("in-progress-1", "in_progress")], [en], {
      filters: { status: "all" },
    });
  }

  it.each([
    ["sft", "ms-swift", "mobile_use_sft", 4],
    ["grpo", "ms-swift", "mobile_use_grpo", 4],
    ["traj", "ui-s1", "ui_s1_trajectories", 4],
  ])("%s refuses, says why and counts the rows; --allow-unreviewed writes them", async (command, target, name, unreviewed) => {
    const dir = await statusAllExport();
    const out = await tempDir();
    const io = captureIo();
    expect(await runBridge([command, dir, "--out", out, "--target", target], io)).toBe(1);
    expect(io.err()).toContain(
      `refused: ${unreviewed} ${command === "traj" ? "steps" : "rows"} are unreviewed model output (the export was made with --status all)`,
    );
    const summary = JSON.parse(io.out()) as Record<string, unknown>;
    expect(summary).toMatchObject({ exportStatus: "all", problems: 0 });
    expect(summary.unreviewedRows ?? summary.unreviewedSteps).toBe(unreviewed);
    expect(existsSync(path.join(out, `${name}.jsonl`))).toBe(false);
    const allowed = captureIo();
    expect(await runBridge([command, dir, "--out", out, "--target", target, "--allow-unreviewed"], allowed)).toBe(0);
    expect(existsSync(path.join(out, `${name}.jsonl`))).toBe(true);
    const after = JSON.parse(allowed.out()) as Record<string, unknown>;
    expect(after.refused).toBeNull();
    expect(after.unreviewedRows ?? after.unreviewedSteps).toBe(unreviewed);
  });
});
