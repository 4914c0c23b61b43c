// Issue 36: the bridge's progress lines never read like a result ("reading 1 of 3 trajectories…", then the
// summary), and no `*.incomplete` file is left behind when a run fails: with problems (exit 1) or part-way (a throw).
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBridge } from "./cli";
import { discardOpenOutputs, JsonlOutput } from "./output";
import { captureIo, EN_SCREENSHOT, loadShot, makeStep, makeTrajectory, tempDir, writeExport } from "./test-fixtures";

describe("bridge progress and failures", () => {
  it("says what it is reading, of how many, before the one line that is the result", async () => {
    const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
    const t = (id: string) => makeTrajectory([makeStep(0, en, { action: "open", text: "Files" })], { id });
    const dir = await writeExport([t("a"), t("b"), t("c")], [en]);
    const io = captureIo();
    expect(await runBridge(["sft", dir, "--out", await tempDir(), "--target", "ms-swift"], io), io.err()).toBe(0);
    const lines = io
      .err()
      .split("\n")
      .filter((l) => l.startsWith("bridge sft (ms-swift):"));
    expect(lines[0]).toBe("bridge sft (ms-swift): reading 1 of 3 trajectories… (1 rows, 0 problems so far)");
    // Only the last line states a result, and it names every trajectory.
    expect(lines.slice(0, -1).every((l) => l.includes("reading"))).toBe(true);
    expect(lines.at(-1)).toMatch(/^bridge sft \(ms-swift\): 3 trajectories, 3 rows/);
  });

  it("leaves no .incomplete file when the run has problems", async () => {
    const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
    const broken = makeTrajectory([makeStep(0, en, { action: "click", coordinate: [5000, 10] })], { id: "off-screen" });
    const dir = await writeExport([broken, "{not json"], [en]);
    const out = await tempDir();
    const io = captureIo();
    expect(await runBridge(["sft", dir, "--out", out, "--target", "ms-swift"], io)).toBe(1);
    expect(readdirSync(out).filter((f) => f.endsWith(".incomplete"))).toEqual([]);
    expect(existsSync(path.join(out, "mobile_use_sft.jsonl"))).toBe(false);
  });

  it("removes the half-written file of a run that stopped part-way", async () => {
    const out = await tempDir();
    const rows = await JsonlOutput.create(path.join(out, "rows.jsonl"));
    await rows.write({ a: 1 });
    await expect.poll(() => existsSync(path.join(out, "rows.jsonl.incomplete"))).toBe(true);
    await discardOpenOutputs(); // what runBridge does when a command throws
    expect(readdirSync(out)).toEqual([]);
  });
});
