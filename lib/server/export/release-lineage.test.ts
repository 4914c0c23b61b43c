// Issue 27 item 2 for every trainer format: a row of `traj`, `dpo` (ms-swift and LLaMA-Factory), `critic` and `prm`
// made from a release export carries the release, trajectory, step and annotation versions it came from, as `sft`
// and `grpo` rows do, and the editor's address built from it names that step. A real SQLite studio: import, a
// person's corrections through the real save, a release cut and exported, the bridge's command line.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import type { ToolCall } from "@/lib/domain/tool-call";
import { editorPath } from "@/lib/domain/trajectory";
import { runBridge } from "@/lib/bridge/cli";
import { captureIo, readJsonl } from "@/lib/bridge/test-fixtures";
import { saveStepAnnotation } from "../annotate";
import type { Db } from "../db";
import { exportDataset } from "./dataset";
import { importFile } from "../import";
import { exportRelease } from "./release";
import { cutRelease } from "./snapshots";
import { getTrajectory } from "../annotate/trajectories";
import { blankPng, freshStudio } from "../testing/fixtures";

type Lineage = {
  release: string;
  release_number: number;
  trajectory_id: string;
  step: number;
  trajectory_version: number;
  step_version: number;
  editor: string;
};

let db: Db;
let id: string;
let release: string;
let plain: string;
/** Step versions after the edits, by 0-based index. */
const versions: number[] = [];

const expected = (step: number): Lineage => ({
  release: "nightly",
  release_number: 1,
  trajectory_id: id,
  step,
  trajectory_version: 1,
  step_version: versions[step]!,
  editor: editorPath(id, step),
});

async function bridge(args: string[]): Promise<string> {
  const out = path.join(await mkdtemp(path.join(os.tmpdir(), "lineage-rows-")), args[0]!);
  const io = captureIo();
  const code = await runBridge([args[0]!, release, "--out", out, "--allow-unreviewed", ...args.slice(1)], io);
  expect(code, io.err()).toBe(0);
  return out;
}

beforeAll(async () => {
  const s = await freshStudio();
  db = s.db;
  await writeFile(path.join(s.dir, "s.png"), await blankPng(1080, 2400));
  const u = await db.user.create({ data: { id: "u-admin", email: "admin@test.local", name: "Admin", role: "admin" } });
  const admin: Actor = { id: u.id, email: u.email, name: u.name, role: "admin" };
  const file = path.join(s.dir, "seed.jsonl");
  const line = {
    goal: "Reply to Ann",
    app: "Mail",
    steps: [0, 1, 2].map((i) => ({
      action_content: { action: "click", coordinate: [100 + i * 10, 200] },
      thought: `Tap item ${i + 1}.`,
      action_description: `Tap item ${i + 1}`,
      screenshot: "s.png",
    })),
  };
  await writeFile(file, `${JSON.stringify(line)}\n`);
  expect((await importFile({ file, format: "ui-s1", screenshotsDir: s.dir, db })).ok).toBe(true);
  id = (await db.trajectory.findFirstOrThrow()).id;
  // Steps 1 and 3 judged good; step 2 corrected (a moved point and a new clear action), saved twice so its
  // version differs from its neighbours'.
  for (const index of [0, 2, 1, 1]) {
    const step = (await getTrajectory(id, db)).steps[index]!;
    const moved = index === 1;
    await saveStepAnnotation(
      {
        actor: admin,
        stepId: step.id,
        thought: step.thought,
        clearAction: moved ? "Tap Reply" : step.clearAction,
        toolCall: (moved ? { action: "click", coordinate: [540, 2200] } : step.toolCall) as ToolCall,
        box: step.box,
        verdict: moved ? "corrected" : "good",
        version: step.version,
      },
      db,
    );
  }
  for (const step of (await getTrajectory(id, db)).steps) versions.push(step.version);
  expect(versions[1]).not.toBe(versions[0]);
  const cut = await cutRelease({ caller: admin, name: "nightly", status: "all" }, db);
  expect(cut.number).toBe(1);
  release = path.join(await mkdtemp(path.join(os.tmpdir(), "lineage-")), "release");
  await exportRelease({ caller: admin, number: 1, outDir: release }, db);
  plain = path.join(path.dirname(release), "plain");
  await exportDataset({ outDir: plain, status: "all", db });
});

describe("lineage in every trainer row of a release export", () => {
  it("traj (UI-S1): each step of the trajectory line carries its own lineage", async () => {
    const out = await bridge(["traj", "--target", "ui-s1"]);
    const [row] = (await readJsonl(path.join(out, "ui_s1_trajectories.jsonl"))) as {
      steps: { lineage: Lineage; action_description: string }[];
    }[];
    expect(row!.steps.map((s) => s.lineage)).toEqual([expected(0), expected(1), expected(2)]);
    expect(row!.steps[1]!.action_description).toBe("Tap Reply");
    expect(row!.steps[1]!.lineage.editor).toBe(`/trajectories/${id}?step=2`);
  });

  it("dpo (ms-swift and LLaMA-Factory): the pair of the corrected step names that step", async () => {
    for (const target of ["ms-swift", "llamafactory"]) {
      const out = await bridge(["dpo", "--target", target]);
      const rows = (await readJsonl(path.join(out, "mobile_use_dpo.jsonl"))) as { lineage: Lineage }[];
      expect(
        rows.map((r) => r.lineage),
        target,
      ).toEqual([expected(1)]);
      expect(JSON.stringify(rows[0]), target).toContain("Tap Reply");
    }
  });

  it("critic: every record, the model's wrong action and the correction alike, names its step", async () => {
    const out = await bridge(["critic"]);
    const rows = (await readJsonl(path.join(out, "gui_critic.jsonl"))) as {
      lineage: Lineage;
      step: number;
      source: string;
      score: string;
    }[];
    expect(rows.length).toBe(4);
    for (const r of rows) expect(r.lineage).toEqual(expected(r.step));
    expect(rows.filter((r) => r.step === 1).map((r) => [r.source, r.score])).toEqual([
      ["model", "Incorrect"],
      ["correction", "Correct"],
    ]);
  });

  it("prm: each step-labelled row names its step and version", async () => {
    const out = await bridge(["prm"]);
    const rows = (await readJsonl(path.join(out, "mobile_use_prm.jsonl"))) as { lineage: Lineage; process_label: number }[];
    expect(rows.map((r) => [r.lineage, r.process_label])).toEqual([
      [expected(0), 1],
      [expected(1), -1],
      [expected(2), 1],
    ]);
  });

  it("rows of an ordinary export carry no lineage (nothing to lead back to)", async () => {
    const io = captureIo();
    const out = path.join(await mkdtemp(path.join(os.tmpdir(), "lineage-plain-rows-")), "prm");
    expect(await runBridge(["prm", plain, "--out", out, "--allow-unreviewed"], io), io.err()).toBe(0);
    const rows = (await readJsonl(path.join(out, "mobile_use_prm.jsonl"))) as Record<string, unknown>[];
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r).not.toHaveProperty("lineage");
  });
});
