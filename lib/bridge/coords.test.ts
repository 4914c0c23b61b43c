import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { groundTruthSchema, REWARD_RULES, rewardFor, type GroundTruth, type RewardResult } from "@/lib/domain/rewards";
import { loadUiS1RewardVectors } from "./vectors/vectors";

// The same predictions expressed in each convention must get the same rewards from both implementations:
// a row declaring qwen3-rel1000 is scored in 0..1000, one declaring nothing (qwen25-abs) in resized pixels.

const PLUGIN_PATH = fileURLToPath(new URL("./reward_plugin.py", import.meta.url));
const VECTORS_PATH = fileURLToPath(new URL("./reward-vectors.json", import.meta.url));

const handWorked = z
  .object({ vectors: z.array(z.object({ name: z.string(), response: z.string(), gt: groundTruthSchema }).passthrough()) })
  .parse(JSON.parse(readFileSync(VECTORS_PATH, "utf8"))).vectors;
const upstream = loadUiS1RewardVectors().vectors;
type Vector = { name: string; response: string; gt: GroundTruth };
const all: Vector[] = [...handWorked, ...upstream.map((v) => ({ name: `ui-s1/${v.name}`, response: v.response, gt: v.gt }))];

const NUMBER = String.raw`-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`;
const POINT = new RegExp(String.raw`("coordinate2?"\s*:\s*)\[\s*(${NUMBER})\s*,\s*(${NUMBER})\s*\]`, "g");

/**
 * The response with every numeric `coordinate` / `coordinate2` pair moved from the resized frame into
 * 0..1000 (x / resized_w * 1000, unrounded, so the prediction stays the same point); anything else as it was.
 */
function toRel1000(response: string, gt: GroundTruth): string {
  const [rw, rh] = gt.resized_wh;
  const f = (v: string, side: number) => String((Number(v) / side) * 1000);
  return response.replace(POINT, (_m, key: string, x: string, y: string) => `${key}[${f(x, rw)}, ${f(y, rh)}]`);
}

/**
 * Vectors whose points this rewrite cannot carry into 0..1000 (points as strings, dicts, x/y keys, three
 * values; integers too large for a float, which UI-S1's parser treats differently from any float): they test
 * parsing, not frames, and are scored by their own tables in rewards.test.ts and ui-s1.test.ts.
 */
const KEYS = /"(?:coordinate2?|x|y)"\s*:/g;
const inexpressible = (v: Vector) =>
  (v.response.match(KEYS) ?? []).length !== (v.response.match(POINT) ?? []).length || /\d{16,}/.test(v.response);
const NOT_EXPRESSIBLE = all.filter(inexpressible).map((v) => v.name);

const rel: Vector[] = all.map((v) => ({ name: v.name, response: toRel1000(v.response, v.gt), gt: { ...v.gt, coords: "qwen3-rel1000" } }));
const moved = all.filter((v, i) => v.response !== rel[i]!.response).length;

type Outcome = { score: number; format: number; action: number; typeMatch: boolean; extractMatch: boolean };
const outcome = (r: RewardResult): Outcome => ({
  score: r.score,
  format: r.format,
  action: r.action,
  typeMatch: r.typeMatch,
  extractMatch: r.extractMatch,
});

describe("the same predictions in qwen25-abs and qwen3-rel1000 rows get the same rewards (TypeScript)", () => {
  it("moves the coordinates of most vectors (the table exercises points, not only texts)", () => {
    expect(moved).toBeGreaterThan(100);
    // Every vector left out is a parsing case (a point no frame can express); 229 of 253 take part.
    expect(NOT_EXPRESSIBLE).toEqual([
      "nan_coordinate",
      "tap_alias_string_point",
      "click_hex_string_coordinates",
      "click_coordinate_int_too_large_for_float",
      "ui-s1/parse_nan_literal",
      "ui-s1/parse_infinity_literal",
      "ui-s1/parse_huge_int_overflow",
      "ui-s1/parse_huge_int_fits",
      "ui-s1/parse_int_too_many_digits",
      "ui-s1/unknown_action_with_bad_coordinate",
      "ui-s1/coord_strings",
      "ui-s1/coord_one_string",
      "ui-s1/coord_single_value",
      "ui-s1/coord_three_values",
      "ui-s1/coord_dict",
      "ui-s1/coord_null",
      "ui-s1/coord_x_y_keys",
      "ui-s1/coord_bools",
      "ui-s1/coord_bad_on_type_step",
      "ui-s1/coord_bad_coordinate2_on_click",
      "ui-s1/annotation_harmful_raises",
      "ui-s1/annotation_neutral_raises",
      "ui-s1/studio_table_nan_coordinate",
      "ui-s1/studio_table_tap_alias_string_point",
    ]);
  });
  it.each(REWARD_RULES.flatMap((rule) => all.flatMap((v, i) => (inexpressible(v) ? [] : [[rule, v.name, i] as const]))))(
    "%s %s",
    (rule, _name, i) => {
      expect(outcome(rewardFor(rule, rel[i]!.response, rel[i]!.gt))).toEqual(outcome(rewardFor(rule, all[i]!.response, all[i]!.gt)));
    },
  );
  it("would catch a row whose convention is not declared: rel1000 answers scored as resized pixels differ", () => {
    const wrong = all.filter((v, i) =>
      REWARD_RULES.some(
        (rule) =>
          rewardFor(rule, rel[i]!.response, v.gt).score !== rewardFor(rule, v.response, v.gt).score && v.response !== rel[i]!.response,
      ),
    );
    expect(wrong.length).toBeGreaterThan(20);
  });
});

const pyResult = z.object({
  score: z.number(),
  format: z.number(),
  action: z.number(),
  type_match: z.boolean(),
  extract_match: z.boolean(),
});

function runPlugin(flag: "--vectors" | "--ui-s1-vectors", vectors: Vector[]): unknown {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coords-vectors-"));
  const file = path.join(dir, "vectors.json");
  writeFileSync(file, JSON.stringify({ vectors }));
  const run = spawnSync("python3", ["-B", "-I", "-S", PLUGIN_PATH, flag, file], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout);
}

describe("the same predictions in qwen25-abs and qwen3-rel1000 rows get the same rewards (Python plugin)", () => {
  const n = handWorked.length;
  it("mobile_r1 and studio_lenient", () => {
    const schema = z.array(z.object({ name: z.string(), mobile_r1: pyResult, studio_lenient: pyResult }));
    const keep = (_v: Vector, i: number) => !inexpressible(all[i]!);
    const abs = schema.parse(runPlugin("--vectors", all.slice(0, n).filter(keep)));
    const r = schema.parse(runPlugin("--vectors", rel.slice(0, n).filter(keep)));
    expect(r).toEqual(abs);
    expect(abs.length).toBeGreaterThan(50);
  });
  it("ui_s1", () => {
    const schema = z.array(pyResult.extend({ name: z.string() }));
    const keep = (_v: Vector, i: number) => !inexpressible(all[n + i]!);
    const abs = schema.parse(runPlugin("--ui-s1-vectors", all.slice(n).filter(keep)));
    const r = schema.parse(runPlugin("--ui-s1-vectors", rel.slice(n).filter(keep)));
    expect(r).toEqual(abs);
    expect(abs.length).toBeGreaterThan(170);
  });
  it("refuses a misspelt convention instead of scoring in the wrong frame", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "coords-vectors-"));
    const file = path.join(dir, "vectors.json");
    writeFileSync(file, JSON.stringify({ vectors: [{ ...rel[0]!, gt: { ...rel[0]!.gt, coords: "rel1000" } }] }));
    const run = spawnSync("python3", ["-B", "-I", "-S", PLUGIN_PATH, "--vectors", file], { encoding: "utf8" });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("coords must be qwen25-abs or qwen3-rel1000");
  });
});
