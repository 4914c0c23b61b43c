// Round trips that change nothing: each source format imported into a real database and exported
// with nobody's edits comes back equal field by field; a step corrected through the real save use
// case comes back in its source's dialect.
import { createHash } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import type { SaveStepInput } from "@/lib/domain/annotation";
import {
  MOBILE_R1_RELEASE_IMAGES,
  MOBILE_R1_RELEASE_JSONL,
  MOBILE_R1_RELEASE_TAP_JSONL,
  UI_S1_EVAL_JSONL,
  UI_S1_TRAIN_JSONL,
} from "@/fixtures";
import { saveStepAnnotation } from "./annotate";
import type { Db } from "./db";
import { exportDataset } from "./export";
import { importFile } from "./import";
import { getTrajectory } from "./annotate/trajectories";
import { blankPng, freshStudio, uiS1ScreenshotDir, withTextChunk } from "./testing/fixtures";

type Row = Record<string, unknown> & { trajectory: Record<string, unknown>[] };

const readRows = (file: string): Row[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Row);
const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

async function admin(db: Db): Promise<Actor> {
  const u = await db.user.create({ data: { id: "u-admin", email: "admin@test.local", name: "Admin", role: "admin" } });
  return { id: u.id, email: u.email, name: u.name, role: "admin" };
}

/** Export everything (nobody's edits: status all) into a fresh folder. */
async function exportAll(db: Db, dir: string, name: string): Promise<string> {
  const out = path.join(dir, name);
  await exportDataset({ outDir: out, status: "all", db });
  return out;
}

/** Save one step through the annotate use case, as the editor would. */
async function correct(db: Db, actor: Actor, instruction: string, index: number, change: (s: SaveStepInput) => SaveStepInput) {
  const t = await db.trajectory.findFirstOrThrow({ where: { instruction } });
  const view = await getTrajectory(t.id, db);
  const step = view.steps[index]!;
  const input: SaveStepInput = {
    thought: step.thought,
    clearAction: step.clearAction,
    toolCall: step.toolCall,
    box: step.box,
    verdict: "corrected",
    version: step.version,
  };
  await saveStepAnnotation({ actor, stepId: step.id, ...change(input) }, db);
}

describe("Mobile-R1 release: import, export with nobody's edits, compare", () => {
  const input = readRows(MOBILE_R1_RELEASE_JSONL);
  let db: Db;
  let dir: string;
  let out: string;
  let rows: Row[];
  const exported = (instruction: unknown) => rows.find((r) => r.instruction === instruction)!;

  beforeAll(async () => {
    const s = await freshStudio();
    db = s.db;
    dir = s.dir;
    expect(await importFile({ file: MOBILE_R1_RELEASE_JSONL, format: "mobile-r1", db })).toMatchObject({ ok: true, trajectories: 4 });
    out = await exportAll(db, dir, "unchanged");
    rows = readRows(path.join(out, "mobile-r1", "data.jsonl"));
  });

  it("writes every row back equal to its input, field by field, strings byte for byte", () => {
    expect(rows).toHaveLength(input.length);
    for (const row of input) {
      const back = exported(row.instruction);
      expect(Object.keys(back).sort()).toEqual(Object.keys(row).sort());
      for (const key of Object.keys(row)) if (key !== "trajectory") expect(back[key], String(key)).toEqual(row[key]);
      expect(back.trajectory).toHaveLength(row.trajectory.length);
      row.trajectory.forEach((step, i) => expect(back.trajectory[i], `${String(row.instruction)} step ${i}`).toEqual(step));
    }
    // The cases the fixture holds are really there: an empty system, unknown fields, scaled images, escaped JSON.
    expect(input.map((r) => r.system)).toContain("");
    expect(input.some((r) => "episode_uuid" in r)).toBe(true);
    expect(input.flatMap((r) => r.trajectory).some((s) => "step_reward" in s)).toBe(true);
    expect(input.some((r) => String(r.trajectory[0]!.action).includes("\\u"))).toBe(true);
  });

  it("links each screenshot under the name the row gave it, with the imported bytes", () => {
    for (const row of input)
      for (const step of row.trajectory) {
        const name = String(step.image);
        expect(sha256Of(path.join(out, "mobile-r1", "images", name)), name).toBe(sha256Of(path.join(MOBILE_R1_RELEASE_IMAGES, name)));
      }
    const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8")) as { files: Record<string, string> };
    expect(manifest.files["mobile-r1/images/r1_0001_0.png"]).toBe(sha256Of(path.join(MOBILE_R1_RELEASE_IMAGES, "r1_0001_0.png")));
  });

  it("the studio format round-trips too: importing the export's trajectories.jsonl and exporting again changes nothing", async () => {
    const b = await freshStudio();
    expect(await importFile({ file: path.join(out, "trajectories.jsonl"), format: "studio", db: b.db })).toMatchObject({
      ok: true,
      trajectories: 4,
    });
    const again = await exportAll(b.db, b.dir, "again");
    // Bookkeeping that names the database, not the data: ids and provenance (import batch, times).
    const strip = (file: string) => readRows(file).map(({ id: _id, provenance: _p, ...t }) => t as Record<string, unknown>);
    expect(strip(path.join(again, "trajectories.jsonl"))).toEqual(strip(path.join(out, "trajectories.jsonl")));
    expect(readFileSync(path.join(again, "mobile-r1", "data.jsonl"), "utf8")).toBe(
      readFileSync(path.join(out, "mobile-r1", "data.jsonl"), "utf8"),
    );
  });

  it("a corrected step comes back in the source's dialect, in the frame the row declares; the other steps as imported", async () => {
    const actor = await admin(db);
    // Row 3: the row declares 1440x3200, the PNGs are 720x1600 (the studio stores 720x1600 pixels).
    const scaled = input[2]!;
    expect(scaled).toMatchObject({ image_width: 1440, image_height: 3200 });
    await correct(db, actor, String(scaled.instruction), 1, (s) => ({
      ...s,
      thought: {
        state: "页面已打开。",
        nextAction: "点击搜索框。",
        purpose: "以便输入关键词。",
        text: "页面已打开。点击搜索框。以便输入关键词。",
      },
      clearAction: "点击顶部的搜索框",
      toolCall: { action: "click", coordinate: [300, 500] },
      box: [250, 450, 350, 550],
    }));
    // Row 2 escapes non-ASCII in its JSON (ensure_ascii): a corrected text is escaped the same way.
    const escaped = input[1]!;
    await correct(db, actor, String(escaped.instruction), 2, (s) => ({
      ...s,
      clearAction: "输入北京",
      toolCall: { action: "type", text: "北京" },
      box: null,
    }));
    const after = readRows(path.join(await exportAll(db, dir, "corrected"), "mobile-r1", "data.jsonl"));
    const back = after.find((r) => r.instruction === scaled.instruction)!;
    const step = back.trajectory[1]!;
    expect(step.action).toBe('{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [600, 1000]}}');
    expect(step.response).toBe(
      '<think>\n页面已打开。点击搜索框。以便输入关键词。\n</think><action>\n点击顶部的搜索框\n</action><tool_call>\n"{\\"name\\": \\"mobile_use\\", \\"arguments\\": {\\"action\\": \\"click\\", \\"coordinate\\": [600, 1000]}}"\n</tool_call>',
    );
    expect(step).toMatchObject({ image: scaled.trajectory[1]!.image, subtask: "点击顶部的搜索框", bbox: [500, 900, 700, 1100] });
    expect(back.system).toBe(scaled.system);
    expect({ ...back, trajectory: undefined }).toEqual({ ...scaled, trajectory: undefined });
    back.trajectory.forEach((s, i) => {
      if (i !== 1) expect(s).toEqual(scaled.trajectory[i]);
    });

    const typed = after.find((r) => r.instruction === escaped.instruction)!.trajectory[2]!;
    expect(typed.action).toBe('{"name": "mobile_use", "arguments": {"action": "type", "text": "\\u5317\\u4eac"}}');
    expect(typed.response).toContain(
      '<tool_call>\n"{\\"name\\": \\"mobile_use\\", \\"arguments\\": {\\"action\\": \\"type\\", \\"text\\": \\"\\\\u5317\\\\u4eac\\"}}"\n</tool_call>',
    );
    expect(typed).not.toHaveProperty("bbox");
  });

  it("two different screenshots under one name: the later one takes its sha256 name, and each name holds its own bytes", async () => {
    const s = await freshStudio();
    await importFile({ file: MOBILE_R1_RELEASE_JSONL, format: "mobile-r1", db: s.db });
    // Another batch whose first screenshot is also called r1_0001_0.png, with other pixels.
    const other = path.join(s.dir, "other");
    await mkdir(path.join(other, "images"), { recursive: true });
    const png = withTextChunk(await blankPng(1080, 2400, "#202020"), "Title", "other");
    await writeFile(path.join(other, "images", "r1_0001_0.png"), png);
    // And names the fixture's r1_0001_1.png (the same bytes) r1_copy.png: one screenshot, two names.
    await copyFile(path.join(MOBILE_R1_RELEASE_IMAGES, "r1_0001_1.png"), path.join(other, "images", "r1_copy.png"));
    const row = {
      ...input[0]!,
      instruction: "另一个任务",
      trajectory: [input[0]!.trajectory[0]!, { ...input[0]!.trajectory[1]!, image: "r1_copy.png" }],
    };
    await writeFile(path.join(other, "data.jsonl"), `${JSON.stringify(row)}\n`);
    expect(await importFile({ file: path.join(other, "data.jsonl"), format: "mobile-r1", db: s.db })).toMatchObject({ ok: true });
    const ex = await exportAll(s.db, s.dir, "clash");
    const all = readRows(path.join(ex, "mobile-r1", "data.jsonl"));
    const named = all.flatMap((r) => r.trajectory.map((st) => ({ image: String(st.image), instruction: r.instruction })));
    const mine = named.filter((n) => n.image === "r1_0001_0.png" || /^[0-9a-f]{64}\.png$/.test(n.image));
    expect(mine).toHaveLength(2);
    const shaOther = createHash("sha256").update(png).digest("hex");
    const shaFixture = sha256Of(path.join(MOBILE_R1_RELEASE_IMAGES, "r1_0001_0.png"));
    for (const n of mine) {
      const bytes = sha256Of(path.join(ex, "mobile-r1", "images", n.image));
      expect(bytes).toBe(n.instruction === "另一个任务" ? shaOther : shaFixture);
    }
    expect(new Set(mine.map((n) => n.image)).size).toBe(2);
    const manifest = JSON.parse(readFileSync(path.join(ex, "manifest.json"), "utf8")) as { files: Record<string, string> };
    for (const n of named)
      expect(manifest.files[`mobile-r1/images/${n.image}`], n.image).toBe(sha256Of(path.join(ex, "mobile-r1", "images", n.image)));
    expect(manifest.files["mobile-r1/images/r1_copy.png"]).toBe(manifest.files["mobile-r1/images/r1_0001_1.png"]);
  });

  // The release's point-less taps (system_button "Tap"), imported as point-less clicks since main's
  // normaliser change, come back exactly as written.
  it("the point-less taps (system_button Tap) round-trip as imported", async () => {
    const s = await freshStudio();
    const images = path.join(s.dir, "tap-images");
    await mkdir(images);
    for (const r of readRows(MOBILE_R1_RELEASE_TAP_JSONL))
      for (const st of r.trajectory)
        await copyFile(path.join(MOBILE_R1_RELEASE_IMAGES, String(st.image)), path.join(images, String(st.image)));
    expect(await importFile({ file: MOBILE_R1_RELEASE_TAP_JSONL, format: "mobile-r1", screenshotsDir: images, db: s.db })).toMatchObject({
      ok: true,
    });
    const back = readRows(path.join(await exportAll(s.db, s.dir, "tap"), "mobile-r1", "data.jsonl"));
    expect(back).toEqual(readRows(MOBILE_R1_RELEASE_TAP_JSONL));
  });
});

/** The first `n` lines of a JSONL file, written beside the test's other files. */
async function headLines(file: string, n: number, dir: string): Promise<string> {
  const out = path.join(dir, `head-${n}-${path.basename(file)}`);
  const lines: string[] = [];
  for await (const l of createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity })) {
    if (l.trim() !== "") lines.push(l);
    if (lines.length === n) break;
  }
  await writeFile(out, `${lines.join("\n")}\n`);
  return out;
}

/** JSON with sorted keys: two rows equal field by field give the same text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object")
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

describe("UI-S1: import, export with nobody's edits, compare", () => {
  it("writes ui-s1/data.jsonl with every trajectory equal to its input row, field by field; a corrected step in UI-S1's shape", async () => {
    const s = await freshStudio();
    const tmp = await mkdtemp(path.join(os.tmpdir(), "ui-s1-rt-"));
    // The training example whole, and the first 300 trajectories of the SOP test set (check_options, episode_id, step_instruction).
    const evalPart = await headLines(UI_S1_EVAL_JSONL, 300, tmp);
    for (const file of [UI_S1_TRAIN_JSONL, evalPart]) {
      const images = await uiS1ScreenshotDir(file);
      expect(await importFile({ file, format: "ui-s1", screenshotsDir: images, db: s.db })).toMatchObject({ ok: true });
    }
    const input = [...readRows(UI_S1_TRAIN_JSONL), ...readRows(evalPart)] as unknown as Record<string, unknown>[];
    const out = await exportAll(s.db, s.dir, "ui-s1");
    const back = readRows(path.join(out, "ui-s1", "data.jsonl")) as unknown as Record<string, unknown>[];
    // Identical input lines are one trajectory in the studio (imports skip duplicates): compare the distinct rows.
    const distinct = (rows: Record<string, unknown>[]) =>
      [...new Map(rows.map((r) => [canonical(r), r])).values()].sort((a, b) => canonical(a).localeCompare(canonical(b)));
    expect(back.length).toBeGreaterThan(300);
    expect(distinct(back)).toEqual(distinct(input));

    // One step corrected through the save use case: UI-S1's own fields, not the Mobile-R1 ones.
    const actor = await admin(s.db);
    const withChecks = input.find((r) => (r.steps as Record<string, unknown>[]).some((st) => "check_options" in st))!;
    await correct(s.db, actor, String(withChecks.goal), 0, (x) => ({
      ...x,
      thought: { state: "", nextAction: "", purpose: "", text: "Open the menu first." },
      clearAction: "Tap the menu button",
      toolCall: { action: "click", coordinate: [100, 200] },
      box: [50, 150, 150, 250],
    }));
    const after = readRows(path.join(await exportAll(s.db, s.dir, "ui-s1-corrected"), "ui-s1", "data.jsonl")) as unknown as Record<
      string,
      unknown
    >[];
    const row = after.find((r) => r.goal === withChecks.goal && r.episode_id === withChecks.episode_id)!;
    const [first, ...rest] = row.steps as Record<string, unknown>[];
    const [inFirst, ...inRest] = withChecks.steps as Record<string, unknown>[];
    expect(first).toEqual({
      ...inFirst,
      action_content: { action: "click", coordinate: [100, 200], bbox: [50, 150, 150, 250] },
      thought: "Open the menu first.",
      action_description: "Tap the menu button",
      check_options: {
        action: "click",
        coordinate: [100, 200],
        ...((inFirst!.check_options as { candidate_bbox?: unknown }).candidate_bbox
          ? { candidate_bbox: (inFirst!.check_options as { candidate_bbox: unknown }).candidate_bbox }
          : {}),
      },
    });
    expect(rest).toEqual(inRest);
  });
});
