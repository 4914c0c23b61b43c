import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CANONICAL_FORMAT } from "@/lib/domain/trajectory";
import { LIMITS } from "@/lib/domain/limits";
import { exportDataset } from "../export";
import { importFile } from "../import";
import { getTrajectory } from "./trajectories";
import { blankPng, freshStudio } from "../testing/fixtures";

// A studio-format file whose steps carry the screen's element lists: they import, reach the editor's
// view, and come back out of an export exactly as they went in.

// A settings screen's tree: the screen, a list reaching past the bottom edge (as a scrolled list's node
// does), a row, its label and its switch; optional fields present on some elements only.
const ELEMENTS = [
  { bbox: [0, 0, 1080, 2400], class: "android.widget.FrameLayout" },
  { bbox: [0, 300, 1080, 2600], class: "androidx.recyclerview.widget.RecyclerView", resource_id: "com.android.settings:id/list" },
  { bbox: [0, 600, 1080, 800], class: "android.widget.LinearLayout" },
  { bbox: [48, 650, 400, 750], text: "Wi-Fi 无线网络", class: "android.widget.TextView", resource_id: "android:id/title" },
  { bbox: [880.5, 650.25, 1040, 750], resource_id: "android:id/switch_widget" },
];

async function studioFile(dir: string, elements: unknown[] | undefined) {
  const png = await blankPng(1080, 2400);
  const sha = createHash("sha256").update(png).digest("hex");
  await mkdir(path.join(dir, "images"), { recursive: true });
  await writeFile(path.join(dir, "images", `${sha}.png`), png);
  const step = (index: number, extra: Record<string, unknown>) => ({
    index,
    screenshot: { sha256: sha, width: 1080, height: 2400 },
    original: { toolCall: { action: "click", coordinate: [960, 700] } },
    thought: { state: "", nextAction: "", purpose: "", text: "" },
    clearAction: "",
    toolCall: { action: "click", coordinate: [960, 700] },
    box: null,
    candidateBoxes: [],
    verdict: "unreviewed",
    ...extra,
  });
  const record = {
    format: CANONICAL_FORMAT,
    app: "Settings",
    instruction: "Turn on Wi-Fi",
    source: "studio",
    outcome: null,
    cutAfter: null,
    // The second step has no element list: it must stay without one.
    steps: [step(0, elements === undefined ? {} : { elements }), step(1, {})],
  };
  const file = path.join(dir, "data.jsonl");
  await writeFile(file, `${JSON.stringify(record)}\n`);
  return file;
}

describe("screen elements in the studio format", () => {
  it("import into the editor's view and export back unchanged, at the step level", async () => {
    const a = await freshStudio();
    const file = await studioFile(path.join(a.dir, "src"), ELEMENTS);
    expect(await importFile({ file, format: "studio", db: a.db })).toMatchObject({ ok: true, trajectories: 1, steps: 2 });
    const id = (await a.db.trajectory.findFirstOrThrow()).id;
    const view = await getTrajectory(id, a.db);
    expect(view.steps[0]!.elements).toEqual(ELEMENTS);
    expect(view.steps[1]!.elements).toBeUndefined();
    // The model's output is left as it was: the elements are not part of it.
    expect(view.steps[0]!.original).toEqual({ toolCall: { action: "click", coordinate: [960, 700] }, rawAction: expect.anything() });

    const out = path.join(a.dir, "export");
    await exportDataset({ outDir: out, status: "all", db: a.db });
    const [line] = readFileSync(path.join(out, "trajectories.jsonl"), "utf8").trim().split("\n");
    const exported = JSON.parse(line!) as { steps: Record<string, unknown>[] };
    // The same keys and values (fractional pixels included); keys are written in the schema's order.
    expect(exported.steps[0]!.elements).toStrictEqual(ELEMENTS);
    expect("elements" in exported.steps[1]!).toBe(false);
    expect("elements" in (exported.steps[0]!.original as object)).toBe(false);

    // And the export imports back to the same elements.
    const b = await freshStudio();
    expect(await importFile({ file: path.join(out, "trajectories.jsonl"), format: "studio", db: b.db })).toMatchObject({ ok: true });
    const back = await getTrajectory((await b.db.trajectory.findFirstOrThrow()).id, b.db);
    expect(back.steps[0]!.elements).toEqual(ELEMENTS);
  });

  it("refuse a bad element list naming the line, step and field, and write nothing", async () => {
    const studio = await freshStudio();
    const cases: [unknown[], string, RegExp][] = [
      [[ELEMENTS[0]!, { bbox: [1100, 0, 1200, 50] }], "elements.1.bbox", /lies outside the 1080x2400 screenshot/],
      [[{ bbox: [10, 10, 5, 20] }], "elements.0.bbox", /x1 <= x2/],
      [[{ bbox: [0, 0, 10, 10], content_desc: "Wi-Fi" }], "elements.0", /content_desc/],
      [[{ bbox: [0, 0, 10, 10], text: "x".repeat(LIMITS.elementText + 1) }], "elements.0.text", /at most 2,000 characters/],
      [Array.from({ length: LIMITS.elementsPerStep + 1 }, () => ({ bbox: [0, 0, 10, 10] })), "elements", /at most 2,000 elements/],
    ];
    for (const [i, [elements, field, message]] of cases.entries()) {
      const file = await studioFile(path.join(studio.dir, `bad-${i}`), elements);
      const r = await importFile({ file, format: "studio", db: studio.db });
      expect(r.ok, field).toBe(false);
      if (r.ok) continue;
      expect(r.problems, field).toEqual([expect.objectContaining({ line: 1, step: 0, field, message: expect.stringMatching(message) })]);
    }
    expect(await studio.db.trajectory.count()).toBe(0);
    expect(await studio.db.step.count()).toBe(0);
  });
});
