import { execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, writeFile, copyFile, mkdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { COOKBOOK_EN_PNG } from "@/fixtures";
import { exportDataset } from "../export";
import { importFile } from "./import-file";
import { importUpload } from "./upload";
import { parseFrameOption } from "@/lib/domain/import-formats";
import { pointsOf } from "@/lib/domain/tool-call";
import type { CanonicalTrajectory } from "@/lib/domain/trajectory";
import { exportTraj } from "@/lib/bridge/traj";
import { captureIo, standardExport } from "@/lib/bridge/test-fixtures";
import { getTrajectory } from "../annotate/trajectories";
import { getStats, listTrajectories } from "../annotate/trajectory-list";
import { UI_S1_EVAL_JSONL as UI_S1_EVAL } from "@/fixtures";
import { blankPng, freshStudio, uiS1ScreenshotDir } from "../testing/fixtures";
import type { Db } from "../db";
import { localize, type MessageKey } from "@/lib/i18n";
import { CLI_ACTOR } from "../people/audit";
import { annotationOf, stepProblems } from "@/lib/domain/annotation";

/** Every row of every table, to prove a failed import changed nothing. */
async function dump(db: Db) {
  return {
    projects: await db.project.findMany({ orderBy: { id: "asc" } }),
    trajectories: await db.trajectory.findMany({ orderBy: { id: "asc" } }),
    steps: await db.step.findMany({ orderBy: { id: "asc" } }),
    screenshots: await db.screenshot.findMany({ orderBy: { sha256: "asc" } }),
    batches: await db.importBatch.findMany({ orderBy: { id: "asc" } }),
  };
}

describe("import of the real UI-S1 AndroidControl SOP set", () => {
  let db: Db;
  let images: string;
  beforeAll(async () => {
    ({ db } = await freshStudio());
    images = await uiS1ScreenshotDir();
  });

  it("imports all 1,543 trajectories and 8,444 steps, then finds them all duplicates the second time", async () => {
    const first = await importFile({ file: UI_S1_EVAL, format: "ui-s1", screenshotsDir: images, db });
    expect(first).toMatchObject({ ok: true, trajectories: 1543, steps: 8444, duplicates: 0 });
    const stats = await getStats({ actor: CLI_ACTOR }, db);
    expect(stats).toMatchObject({ trajectories: 1543, steps: 8444, screenshots: 8444 });
    expect(stats.byStatus.new).toBe(1543);

    const again = await importFile({ file: UI_S1_EVAL, format: "ui-s1", screenshotsDir: images, db });
    expect(again).toMatchObject({ ok: true, trajectories: 0, steps: 0, duplicates: 1543 });
    expect((await getStats({ actor: CLI_ACTOR }, db)).trajectories).toBe(1543);
  });

  it("exports all of it and imports the canonical JSONL back into a fresh studio unchanged", async () => {
    const out = path.join(await mkdtemp(path.join(os.tmpdir(), "ui-s1-export-")), "ds");
    const summary = await exportDataset({ outDir: out, status: "all", db });
    expect(summary).toMatchObject({ trajectories: 1543, steps: 8444 });
    const b = await freshStudio();
    const back = await importFile({
      file: path.join(out, "trajectories.jsonl"),
      format: "studio",
      screenshotsDir: path.join(out, "screenshots"),
      db: b.db,
    });
    expect(back).toMatchObject({ ok: true, trajectories: 1543, steps: 8444 });
    // Same content, compared trajectory by trajectory through the content fingerprint.
    const a = await db.trajectory.findMany({ select: { id: true, fingerprint: true }, orderBy: { fingerprint: "asc" } });
    const bb = await b.db.trajectory.findMany({ select: { id: true, fingerprint: true }, orderBy: { fingerprint: "asc" } });
    expect(bb.map((t) => t.fingerprint)).toEqual(a.map((t) => t.fingerprint));
    for (let i = 0; i < a.length; i += 97) {
      const strip = ({ id: _i, version: _v, steps, ...t }: Awaited<ReturnType<typeof getTrajectory>>) => ({
        ...t,
        steps: steps.map(({ id: _s, version: _sv, ...s }) => s),
      });
      expect(strip(await getTrajectory(bb[i]!.id, b.db))).toEqual(strip(await getTrajectory(a[i]!.id, db)));
    }
  });

  it("keeps candidate boxes, step instructions and the outcome in original pixels", async () => {
    const page = await listTrajectories({ q: "publish my sculpture art", page: 1, pageSize: 5, actor: CLI_ACTOR }, db);
    const row = page.rows.find((r) => r.sourceRef === "episode 8193");
    expect(row).toBeDefined();
    const t = await getTrajectory(row!.id, db);
    expect(t.originalOutcome).toBe("success");
    expect(t.sourceRef).toBe("episode 8193");
    const click = t.steps[1]!;
    expect(click.toolCall).toEqual({ action: "click", coordinate: [540, 2273] });
    expect(click.candidateBoxes).toEqual([
      [456, 2211, 624, 2337],
      [0, 473, 1080, 2337],
    ]);
    expect(click.box).toEqual([456, 2211, 624, 2337]);
    expect(click.original.extra).toMatchObject({ step_instruction: "click on create tab" });
    expect(t.steps[0]!.toolCall).toEqual({ action: "system_button", button: "Back" });
  });
});

describe("a malformed import", () => {
  it("names every problem with file, line, step and field, and leaves the database exactly as it was", async () => {
    const { db } = await freshStudio();
    const dir = await mkdtemp(path.join(os.tmpdir(), "bad-import-"));
    await writeFile(path.join(dir, "ok.png"), await blankPng(1080, 2400));
    await writeFile(path.join(dir, "not-an-image.png"), "hello");
    const good = {
      goal: "Open Gmail",
      is_successful: true,
      steps: [{ action_content: { action: "open", text: "Gmail" }, screenshot: "/x/ok.png" }],
    };
    // A clean batch first, so "unchanged" means something.
    await writeFile(path.join(dir, "good.jsonl"), `${JSON.stringify(good)}\n`);
    expect((await importFile({ file: path.join(dir, "good.jsonl"), format: "ui-s1", db })).ok).toBe(true);
    const before = await dump(db);

    const lines = [
      JSON.stringify({ ...good, goal: "A different, valid trajectory" }),
      '{"goal": "broken", "steps": [',
      JSON.stringify({ goal: "unknown action", steps: [{ action_content: { action: "teleport" }, screenshot: "/x/ok.png" }] }),
      JSON.stringify({
        goal: "missing image",
        steps: [
          { action_content: { action: "open", text: "A" }, screenshot: "/x/ok.png" },
          { action_content: { action: "wait", time: 1 }, screenshot: "/x/nowhere.png" },
        ],
      }),
      JSON.stringify({ goal: "not an image", steps: [{ action_content: { action: "wait", time: 1 }, screenshot: "/x/not-an-image.png" }] }),
    ];
    await writeFile(path.join(dir, "bad.jsonl"), `${lines.join("\n")}\n`);
    const r = await importFile({ file: path.join(dir, "bad.jsonl"), format: "ui-s1", db });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const found = r.problems.map((p) => ({
      line: p.line,
      step: p.step,
      field: p.field,
      code: p.code,
      params: p.params,
      message: p.message,
    }));
    // Each problem has a code and its values, so the import page words it in the reader's language; the English words stay for the CLI.
    expect(found).toEqual([
      expect.objectContaining({
        line: 2,
        code: "brokenJson",
        params: { detail: expect.any(String) },
        message: expect.stringMatching(/broken JSON/),
      }),
      expect.objectContaining({
        line: 3,
        step: 0,
        field: "action",
        code: "unknownAction",
        params: { action: "teleport" },
        message: 'unknown action "teleport"',
      }),
      expect.objectContaining({
        line: 4,
        step: 1,
        field: "screenshot",
        code: "screenshotMissing",
        params: { file: expect.stringMatching(/nowhere\.png$/) },
        message: expect.stringMatching(/not found: .*nowhere\.png/),
      }),
      expect.objectContaining({
        line: 5,
        step: 0,
        field: "screenshot",
        code: "screenshotUnreadable",
        message: expect.stringMatching(/not-an-image\.png/),
      }),
    ]);
    // Worded from the catalogue, a Chinese reader gets a Chinese sentence with the value as written.
    expect(localize({ key: `importProblem.${found[1]!.code}` as MessageKey, vars: found[1]!.params }, "zh")).toBe("未知动作“teleport”");
    expect(localize({ key: `importProblem.${found[2]!.code}` as MessageKey, vars: found[2]!.params }, "zh")).toMatch(
      /^找不到截图文件：.*nowhere\.png$/,
    );
    expect(await dump(db)).toEqual(before);
  });

  it("from the command line: exits non-zero and prints each problem", async () => {
    const { dir, url } = await freshStudio();
    const src = await mkdtemp(path.join(os.tmpdir(), "bad-cli-"));
    await writeFile(
      path.join(src, "data.jsonl"),
      '{"app_name": "淘宝", "instruction": "搜索", "trajectory": [{"image": "a.png", "action": "{\\"name\\": \\"mobile_use\\", \\"arguments\\": {\\"action\\": \\"Tap\\"}}"}]}\nnot json\n',
    );
    const r = spawnSync(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "lib/cli/main.ts", "import", path.join(src, "data.jsonl"), "--format", "mobile-r1"],
      {
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: url, STUDIO_DATA_DIR: dir },
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/data\.jsonl:1 step 1 screenshot: screenshot file not found/);
    expect(r.stderr).toMatch(/data\.jsonl:2: broken JSON/);
    expect(r.stderr).toMatch(/nothing was imported/);
    const stats = JSON.parse(
      execFileSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "lib/cli/main.ts", "stats", "--json"], {
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: url, STUDIO_DATA_DIR: dir },
      }),
    );
    expect(stats).toMatchObject({ trajectories: 0, steps: 0 });
  });
});

describe("Mobile-R1 release format", () => {
  it("reads actions in older dialects, tagged responses and coordinates in the model's resized frame", async () => {
    const { db } = await freshStudio();
    const dir = await mkdtemp(path.join(os.tmpdir(), "mr1-"));
    await mkdir(path.join(dir, "images"));
    await copyFile(COOKBOOK_EN_PNG, path.join(dir, "images", "en.png"));
    const row = {
      app_name: "File Manager",
      instruction: "Open the file manager app and view the au_uu_SzH3yR2.mp3 file in MUSIC Folder",
      system: "",
      image_width: 1080,
      image_height: 2400,
      trajectory: [
        {
          image: "en.png",
          thought: "The file manager is open. Tap the MUSIC folder. To find the file.",
          subtask: "Tap MUSIC",
          action: '{"name": "mobile_use", "arguments": {"action": "Tap", "coordinate": [935, 406]}}',
          response:
            '<think>The file manager is open.</think><action>Tap MUSIC</action><tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [935, 406]}}</tool_call>',
        },
      ],
    };
    await writeFile(path.join(dir, "data.jsonl"), `${JSON.stringify(row)}\n`);
    const r = await importFile({
      file: path.join(dir, "data.jsonl"),
      format: "mobile-r1",
      frame: { kind: "resized", maxPixels: 12845056 },
      db,
    });
    expect(r.ok).toBe(true);
    const list = await listTrajectories({ page: 1, pageSize: 10, actor: CLI_ACTOR }, db);
    const t = await getTrajectory(list.rows[0]!.id, db);
    const step = t.steps[0]!;
    // 935 in the 1092-wide frame is 924.7 original pixels; 406 of 2408 is 404.65.
    expect(step.toolCall.action).toBe("click");
    if (step.toolCall.action !== "click" || !step.toolCall.coordinate) throw new Error("expected a click with a point");
    expect(step.toolCall.coordinate[0]).toBeCloseTo(924.725, 2);
    expect(step.toolCall.coordinate[1]).toBeCloseTo(404.65, 2);
    expect(step.thought).toMatchObject({
      state: "The file manager is open.",
      nextAction: "Tap the MUSIC folder.",
      purpose: "To find the file.",
    });
    expect(step.clearAction).toBe("Tap MUSIC");
    expect(step.original.response).toBe(row.trajectory[0]!.response);
    expect(step.original.rawAction).toBe(row.trajectory[0]!.action);
    expect(step.screenshot).toMatchObject({ width: 1080, height: 2400 });
  });

  it("imports `bridge traj` files in either convention back to the original pixels (rel1000 within half a unit)", async () => {
    const { dir: exportDir } = await standardExport();
    const canonical = (await readFile(path.join(exportDir, "trajectories.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as CanonicalTrajectory);
    for (const coords of ["qwen25-abs", "qwen3-rel1000"] as const) {
      const { db } = await freshStudio();
      const out = await mkdtemp(path.join(os.tmpdir(), `traj-${coords}-`));
      const { exitCode } = await exportTraj(
        exportDir,
        { outDir: out, target: "ui-s1", coords, allowProblems: false, allowUnreviewed: false },
        captureIo(),
      );
      expect(exitCode).toBe(0);
      const frame = parseFrameOption(coords === "qwen25-abs" ? "original" : "rel1000");
      // A rel1000 file declares its convention; read as pixels, it is refused by name instead of read wrong.
      if (coords === "qwen3-rel1000") {
        const refused = await importFile({ file: path.join(out, "ui_s1_trajectories.jsonl"), format: "ui-s1", db });
        expect(refused.ok).toBe(false);
        if (!refused.ok) expect(refused.problems[0]).toMatchObject({ field: "coords", message: expect.stringMatching(/--frame rel1000/) });
      }
      const r = await importFile({ file: path.join(out, "ui_s1_trajectories.jsonl"), format: "ui-s1", frame, db });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      const list = await listTrajectories({ page: 1, pageSize: 10, actor: CLI_ACTOR }, db);
      expect(list.rows).toHaveLength(2); // the discarded trajectory is not written
      let moved = 0;
      for (const row of list.rows) {
        const t = await getTrajectory(row.id, db);
        const source = canonical.find((c) => c.instruction === t.instruction)!;
        t.steps.forEach((step, i) => {
          const want = source.steps[i]!;
          const { width, height } = want.screenshot;
          // Half a unit of the convention: none for original pixels, side / 2000 for rel1000 (0.54 x 1.2 px on 1080x2400).
          const [bx, by] = coords === "qwen25-abs" ? [0, 0] : [width / 2000, height / 2000];
          const got = pointsOf(step.toolCall);
          const exp = pointsOf(want.toolCall);
          expect(step.toolCall.action).toBe(want.toolCall.action);
          expect(got).toHaveLength(exp.length);
          got.forEach((p, k) => {
            expect(Math.abs(p[0] - exp[k]![0]), `${coords} ${t.instruction} step ${i}`).toBeLessThanOrEqual(bx + 1e-9);
            expect(Math.abs(p[1] - exp[k]![1]), `${coords} ${t.instruction} step ${i}`).toBeLessThanOrEqual(by + 1e-9);
          });
          if (JSON.stringify(got) !== JSON.stringify(exp)) moved += 1;
        });
      }
      // Original pixels come back exactly; 0..1000 moves the points that are not on a 1/1000 grid (the clicks).
      expect(moved).toBe(coords === "qwen25-abs" ? 0 : 2);
    }
  });

  it("reads Qwen3-VL / GUI-Owl 1.5 coordinates, 0..1000 relative to the screenshot (--frame rel1000)", async () => {
    const { db } = await freshStudio();
    const dir = await mkdtemp(path.join(os.tmpdir(), "mr1-rel-"));
    await mkdir(path.join(dir, "images"));
    await copyFile(COOKBOOK_EN_PNG, path.join(dir, "images", "en.png"));
    const call = '{"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [500, 750], "coordinate2": [866, 169]}}';
    const row = {
      app_name: "File Manager",
      instruction: "Scroll to the MUSIC folder",
      system: "",
      image_width: 1080,
      image_height: 2400,
      trajectory: [{ image: "en.png", thought: "Scroll.", subtask: "Scroll", action: call, response: `<tool_call>${call}</tool_call>` }],
    };
    await writeFile(path.join(dir, "data.jsonl"), `${JSON.stringify(row)}\n`);
    const r = await importFile({ file: path.join(dir, "data.jsonl"), format: "mobile-r1", frame: parseFrameOption("rel1000"), db });
    expect(r.ok).toBe(true);
    const list = await listTrajectories({ page: 1, pageSize: 10, actor: CLI_ACTOR }, db);
    const step = (await getTrajectory(list.rows[0]!.id, db)).steps[0]!;
    // x / 1000 x 1080, y / 1000 x 2400: [540, 1800] and [935.28, 405.6] original pixels.
    expect(step.toolCall).toEqual({ action: "swipe", coordinate: [540, 1800], coordinate2: [935.28, 405.6] });
  });
});

describe("geometry the model got wrong", () => {
  it("imports an off-screen click and box as they are, names them in the editor's checks, and round-trips them", async () => {
    const { db } = await freshStudio();
    const dir = await mkdtemp(path.join(os.tmpdir(), "offscreen-"));
    await writeFile(path.join(dir, "ok.png"), await blankPng(1080, 2400));
    const line = {
      goal: "Tap past the edge",
      steps: [{ action_content: { action: "click", coordinate: [1200, 50], bbox: [1150, 0, 1300, 100] }, screenshot: "/x/ok.png" }],
    };
    await writeFile(path.join(dir, "data.jsonl"), `${JSON.stringify(line)}\n`);
    const r = await importFile({ file: path.join(dir, "data.jsonl"), format: "ui-s1", db });
    expect(r.ok ? [] : r.problems).toEqual([]);
    const list = await listTrajectories({ page: 1, pageSize: 10, actor: CLI_ACTOR }, db);
    const t = await getTrajectory(list.rows[0]!.id, db);
    expect(t.steps[0]!.toolCall).toEqual({ action: "click", coordinate: [1200, 50] });
    const codes = stepProblems(annotationOf(t.steps[0]!), t.steps[0]!.screenshot).map((p) => p.code);
    expect(codes).toEqual(expect.arrayContaining(["toolCall.offScreen", "box.offScreen"]));

    // What the studio holds exports and imports back into another studio unchanged.
    const outDir = path.join(dir, "export");
    await exportDataset({ outDir, status: "all", db });
    const other = await freshStudio();
    const back = await importFile({ file: path.join(outDir, "trajectories.jsonl"), format: "studio", db: other.db });
    expect(back.ok ? [] : back.problems).toEqual([]);
    const again = await listTrajectories({ page: 1, pageSize: 10, actor: CLI_ACTOR }, other.db);
    const t2 = await getTrajectory(again.rows[0]!.id, other.db);
    expect(t2.steps[0]!.toolCall).toEqual(t.steps[0]!.toolCall);
    expect(t2.steps[0]!.box).toEqual(t.steps[0]!.box);
  });
});

describe("the web upload's coordinate frames", () => {
  it("reads a file's 0..1000 coordinates when the form says rel1000", async () => {
    const { db } = await freshStudio();
    const row = {
      app_name: "Files",
      instruction: "Open the middle of the screen",
      trajectory: [{ image: "a.png", thought: "t", subtask: "s", action: { action: "click", coordinate: [500, 500] } }],
    };
    const form = new FormData();
    form.append("format", "mobile-r1");
    form.append("frame", "rel1000");
    form.append("files", new Blob([`${JSON.stringify(row)}\n`]), "data.jsonl");
    form.append("files", new Blob([new Uint8Array(await blankPng(1080, 2400))]), "a.png");
    const r = await importUpload(new Request("http://studio.local/api/imports", { method: "POST", body: form }), CLI_ACTOR, { db });
    expect(r.ok ? [] : r.problems).toEqual([]);
    const list = await listTrajectories({ page: 1, pageSize: 10, actor: CLI_ACTOR }, db);
    const t = await getTrajectory(list.rows.find((x) => x.instruction === row.instruction)!.id, db);
    expect(t.steps[0]!.toolCall).toEqual({ action: "click", coordinate: [540, 1200] });
  });
});
