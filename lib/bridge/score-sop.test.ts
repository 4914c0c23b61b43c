import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Verdict } from "@/lib/domain/trajectory";
import { runBridge } from "./cli";
import type { ScoreSummary } from "./score";
import { captureIo, makeStep, makeTrajectory, readJsonl, tempDir, writeExport, type Shot } from "./test-fixtures";
import { uiS1EvalResize, uiS1TrajStep } from "@/lib/domain/ui-s1-reward";
import { loadUiS1SopVectors } from "./vectors/vectors";

const sop = loadUiS1SopVectors();

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A real (black, 1-bit greyscale) PNG of the given size. */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8);
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const VERDICTS: Record<string, Verdict> = { GOOD: "good", HARMFUL: "harmful", NEUTRAL: "neutral" };

async function sopExport() {
  const shots = new Map<string, Shot>();
  const shotOf = (width: number, height: number): Shot => {
    const k = `${width}x${height}`;
    if (!shots.has(k)) {
      const bytes = png(width, height);
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      shots.set(k, { sha256, width, height, file: `screenshots/${sha256}.png`, bytes });
    }
    return shots.get(k)!;
  };
  const trajectories = sop.trajectories.map((t) =>
    makeTrajectory(
      t.steps.map((s, i) =>
        makeStep(i, shotOf(s.width, s.height), s.call, { box: s.box, candidateBoxes: s.candidates, verdict: VERDICTS[s.annotation] }),
      ),
      { id: t.name },
    ),
  );
  const dir = await writeExport(trajectories, [...shots.values()]);
  return { dir, trajectories };
}

describe("bridge score --rule ui-s1: SOP equals UI-S1's eval_qwenvl.py", () => {
  it("gives eval_qwenvl.py's success rate and average progress on the vector trajectories", async () => {
    const { dir } = await sopExport();
    const file = path.join(await tempDir(), "predictions.jsonl");
    const lines = sop.trajectories.flatMap((t) =>
      t.responses.map((response, step) => JSON.stringify({ trajectory: t.name, step, response })),
    );
    await writeFile(file, lines.join("\n"));
    const io = captureIo();
    const code = await runBridge(["score", dir, "--predictions", file, "--rule", "ui-s1", "--json"], io);
    expect(io.err()).toContain(", 0 problems");
    expect(code).toBe(0);
    const summary = JSON.parse(io.out()) as ScoreSummary;
    expect(summary.sop.definition).toBe("eval_qwenvl");
    expect(summary.sop.trajectories).toBe(sop.totals.trajectories);
    expect(summary.sop.incomplete).toBe(0);
    expect(summary.sop.successRate).toBeCloseTo(sop.totals.success_rate, 12);
    expect(summary.sop.progress).toBeCloseTo(sop.totals.progress, 12);
  });

  it("needs responses only as far as the evaluation goes, and leaves out (and counts) trajectories with a gap before that", async () => {
    const { dir } = await sopExport();
    const file = path.join(await tempDir(), "predictions.jsonl");
    // Only the responses eval_qwenvl.py asked for, except one trajectory whose last needed response is dropped.
    const gap = sop.trajectories.find((t) => t.name === "all_match")!;
    const lines = sop.trajectories.flatMap((t) =>
      t.responses
        .slice(0, t === gap ? t.expect.responses_used - 1 : t.expect.responses_used)
        .map((response, step) => JSON.stringify({ trajectory: t.name, step, response })),
    );
    await writeFile(file, lines.join("\n"));
    const io = captureIo();
    expect(await runBridge(["score", dir, "--predictions", file, "--rule", "ui-s1", "--json"], io)).toBe(0);
    const summary = JSON.parse(io.out()) as ScoreSummary;
    const rest = sop.trajectories.filter((t) => t !== gap);
    expect(summary.sop).toMatchObject({ definition: "eval_qwenvl", trajectories: rest.length, incomplete: 1 });
    expect(summary.sop.successRate).toBeCloseTo((rest.filter((t) => t.expect.task_success).length / rest.length) * 100, 12);
    expect(summary.sop.progress).toBeCloseTo(rest.reduce((s, t) => s + t.expect.final_step_id / t.expect.num_steps, 0) / rest.length, 12);
  });

  it("scores the same responses written in 0..1000 (--coords qwen3-rel1000) alike: every rule's rewards and the SOP", async () => {
    const { dir } = await sopExport();
    const folder = await tempDir();
    // Numeric pairs, and pairs of numeric strings (which only studio-lenient reads), keep their form.
    const point = /("coordinate2?"\s*:\s*)\[\s*("?)(-?\d+(?:\.\d+)?)"?\s*,\s*"?(-?\d+(?:\.\d+)?)"?\s*\]/g;
    const write = async (name: string, rel: boolean) => {
      const lines = sop.trajectories.flatMap((t) =>
        t.responses.map((response, step) => {
          const { width, height } = t.steps[step]!;
          // eval_qwenvl.py's frame; for these screenshots the export's default frame is the same.
          const [rw, rh] = uiS1EvalResize(width, height);
          const moved = response.replace(
            point,
            (_m, key: string, q: string, x: string, y: string) =>
              `${key}[${q}${(Number(x) / rw) * 1000}${q}, ${q}${(Number(y) / rh) * 1000}${q}]`,
          );
          return JSON.stringify({ trajectory: t.name, step, response: rel ? moved : response });
        }),
      );
      await writeFile(path.join(folder, name), lines.join("\n"));
      return path.join(folder, name);
    };
    const score = async (file: string, coords: string) => {
      const io = captureIo();
      expect(await runBridge(["score", dir, "--predictions", file, "--rule", "ui-s1", "--json", "--coords", coords], io)).toBe(0);
      return JSON.parse(io.out()) as ScoreSummary;
    };
    const abs = await score(await write("abs.jsonl", false), "qwen25-abs");
    const relFile = await write("rel.jsonl", true);
    const rel = await score(relFile, "qwen3-rel1000");
    expect(rel.coords).toBe("qwen3-rel1000");
    expect({ ...rel, coords: abs.coords, predictions: abs.predictions }).toEqual(abs);
    expect(abs.sop.successRate).toBeCloseTo(sop.totals.success_rate, 12);
    // Read as resized pixels, the same 0..1000 answers miss: the declared frame is what makes them right.
    const undeclared = await score(relFile, "qwen25-abs");
    expect(undeclared.sop.successRate).not.toBe(abs.sop.successRate);
  });

  it("reads the steps exactly as `bridge traj --target ui-s1` writes them", async () => {
    const { dir, trajectories } = await sopExport();
    const out = await tempDir();
    expect(await runBridge(["traj", dir, "--out", out, "--target", "ui-s1"], captureIo())).toBe(0);
    const rows = (await readJsonl(path.join(out, "ui_s1_trajectories.jsonl"))) as { steps: Record<string, unknown>[] }[];
    expect(rows).toHaveLength(trajectories.length);
    rows.forEach((row, t) =>
      row.steps.forEach((step, i) => {
        const canonical = trajectories[t]!.steps[i]!;
        const ours = uiS1TrajStep(canonical, step.annotation as "GOOD");
        expect(step.action_content).toEqual(ours.action_content);
        expect(step.check_options).toEqual(ours.check_options);
        // eval_qwenvl.py's fix_line looks for these at the top level of a step.
        expect("bbox" in step || "candidate_bbox" in step).toBe(false);
      }),
    );
  });
});
