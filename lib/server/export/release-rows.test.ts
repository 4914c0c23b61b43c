// Rows in the Mobile-R1 release's real shape (FORMATS.md 1.4): a stub system prompt with the instruction inside it,
// responses whose <tool_call> holds the call JSON-encoded again, and icon taps stored as system_button "Tap" with no
// point. They import whole; the pointless taps are named in the editor's checks, block submit, and are named by the
// trainer bridge until a person places the point.
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MOBILE_R1_RELEASE_TAP_JSONL } from "@/fixtures";
import { annotationOf, stepProblems } from "@/lib/domain/annotation";
import { runBridge } from "@/lib/bridge/cli";
import { captureIo } from "@/lib/bridge/test-fixtures";
import { CLI_ACTOR } from "../people/audit";
import { AppError } from "../errors/errors";
import { exportDataset } from "./dataset";
import { importFile } from "../import";
import { saveStepAnnotation, saveTrajectoryAnnotation, submitTrajectory } from "../annotate";
import { createUser } from "../people";
import { getTrajectory } from "../annotate/trajectories";
import { listTrajectories } from "../annotate/trajectory-list";
import { blankPng, freshStudio } from "../testing/fixtures";

/** The release's own system prompt (a stub tool, Chinese lines, the task inside it), as the fixture holds it. */
const STUB_SYSTEM = (JSON.parse(readFileSync(MOBILE_R1_RELEASE_TAP_JSONL, "utf8").split("\n")[0]!) as { system: string }).system;

/** One step as the release writes it: `action` a JSON string, `response` with the call JSON-encoded again. */
function releaseStep(image: string, thought: string, subtask: string, args: Record<string, unknown>) {
  const action = JSON.stringify({ name: "mobile_use", arguments: args }).replace(/","/g, '", "').replace(/":/g, '": ');
  return {
    image,
    thought,
    subtask,
    action,
    response: `<think>\n${thought}\n</think><action>\n${subtask}\n</action><tool_call>\n${JSON.stringify(action)}\n</tool_call>`,
  };
}

const ROW = {
  app_name: "笔记",
  trajectory_length: 3,
  instruction: "打开笔记应用,新建一条笔记",
  system: STUB_SYSTEM,
  image_width: 1080,
  image_height: 2400,
  trajectory: [
    releaseStep("a1.png", "现在在手机主屏,下一步要点击“笔记”图标进入“笔记”首页", "点击手机桌面上的“笔记”应用图标,进入笔记应用界面。", {
      action: "system_button",
      button: "Tap",
    }),
    releaseStep("a2.png", "现在在笔记首页,下一步点击右下角的加号新建笔记", "点击右下角的“+”按钮。", {
      action: "click",
      coordinate: [980, 2200],
    }),
    releaseStep("a3.png", "新笔记已打开,任务完成", "结束任务。", { action: "terminate", status: "success" }),
  ],
};

async function importRelease() {
  const { db } = await freshStudio();
  const dir = await mkdtemp(path.join(os.tmpdir(), "release-"));
  await mkdir(path.join(dir, "images"));
  for (const s of ROW.trajectory) await writeFile(path.join(dir, "images", s.image), await blankPng(1080, 2400));
  await writeFile(path.join(dir, "data.jsonl"), `${JSON.stringify(ROW)}\n`);
  const r = await importFile({ file: path.join(dir, "data.jsonl"), format: "mobile-r1", db });
  const list = await listTrajectories({ page: 1, pageSize: 10, actor: CLI_ACTOR }, db);
  return { db, r, dir, id: list.rows[0]?.id };
}

describe("the Mobile-R1 release's real rows", () => {
  it("import whole: the Tap becomes a click without a point, the double-encoded calls are read, everything is kept verbatim", async () => {
    const { db, r, id } = await importRelease();
    expect(r.ok).toBe(true);
    const t = await getTrajectory(id!, db);
    expect(t.steps.map((s) => s.toolCall)).toEqual([
      { action: "click", coordinate: null },
      { action: "click", coordinate: [980, 2200] },
      { action: "terminate", status: "success" },
    ]);
    for (const [i, s] of t.steps.entries()) {
      expect(s.original.response).toBe(ROW.trajectory[i]!.response);
      expect(s.original.rawAction).toBe(ROW.trajectory[i]!.action);
      expect(s.original.thought).toBe(ROW.trajectory[i]!.thought);
      expect(s.original.clearAction).toBe(ROW.trajectory[i]!.subtask);
    }
    // The editor's checks name the tap, on the coordinate.
    const problems = stepProblems(annotationOf(t.steps[0]!), t.steps[0]!.screenshot);
    expect(problems).toContainEqual({ code: "toolCall.missingPoint", field: "toolCall.coordinate", isBlocking: true });
    expect(stepProblems(annotationOf(t.steps[1]!), t.steps[1]!.screenshot).map((p) => p.code)).not.toContain("toolCall.missingPoint");
  });

  it("block submit until a person places the point, then the step counts like any other", async () => {
    const { db, id } = await importRelease();
    const { person } = await createUser({ actor: CLI_ACTOR, email: "lead@example.com", role: "admin" }, db);
    const admin = { id: person.id, email: person.email, name: "Lead", role: "admin" as const };
    let t = await getTrajectory(id!, db);
    await saveTrajectoryAnnotation(
      { actor: admin, id: id!, outcome: "success", isDiscarded: false, cutAfter: null, version: t.version },
      db,
    );
    const refused = await submitTrajectory({ actor: admin, id: id! }, db).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    const details = JSON.stringify((refused as AppError).details);
    expect(details).toContain("toolCall.missingPoint");
    expect(details).toContain('"stepIndex":0');

    t = await getTrajectory(id!, db);
    const s0 = t.steps[0]!;
    const placed = await saveStepAnnotation(
      { actor: admin, stepId: s0.id, ...annotationOf(s0), toolCall: { action: "click", coordinate: [540, 1300] }, version: s0.version },
      db,
    );
    expect(placed.toolCall).toEqual({ action: "click", coordinate: [540, 1300] });
    expect(stepProblems(annotationOf(placed), placed.screenshot).map((p) => p.code)).not.toContain("toolCall.missingPoint");
  });

  it("are named by the bridge: the tap is a problem, never a row with a made-up point", async () => {
    const { db } = await importRelease();
    const outDir = path.join(await mkdtemp(path.join(os.tmpdir(), "release-export-")), "export");
    await exportDataset({ outDir, status: "all", db });
    // The release file comes back as it was imported: its own system prompt and the tap's raw action.
    const [r1] = readFileSync(path.join(outDir, "mobile-r1", "data.jsonl"), "utf8")
      .trim()
      .split("\n");
    const back1 = JSON.parse(r1!) as { system: string; trajectory: { action: string; response: string }[] };
    expect(back1.system).toBe(STUB_SYSTEM);
    expect(back1.trajectory.map((s) => s.action)).toEqual(ROW.trajectory.map((s) => s.action));
    expect(back1.trajectory.map((s) => s.response)).toEqual(ROW.trajectory.map((s) => s.response));
    // The canonical export keeps the pointless call, and imports back as it was.
    const again = await freshStudio();
    const back = await importFile({ file: path.join(outDir, "trajectories.jsonl"), format: "studio", db: again.db });
    expect(back.ok ? [] : back.problems).toEqual([]);

    const io = captureIo();
    const out = await mkdtemp(path.join(os.tmpdir(), "release-sft-"));
    const code = await runBridge(["sft", outDir, "--out", out, "--target", "ms-swift", "--allow-unreviewed"], io);
    expect(code).toBe(1);
    expect(io.err()).toMatch(/step 1: the model tapped without a point; place the point where it should have tapped/);
    // Later steps cannot carry a history line for it either: named, not written.
    expect(io.err()).toMatch(/step 2: history step 1 cannot be converted/);
  });
});
