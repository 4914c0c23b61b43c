import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { groundTruthSchema, mobileR1Reward, studioLenientReward, type RewardResult } from "@/lib/domain/rewards";

const VECTORS_PATH = fileURLToPath(new URL("./reward-vectors.json", import.meta.url));
const PLUGIN_PATH = fileURLToPath(new URL("./reward_plugin.py", import.meta.url));

const expectSchema = z.object({
  format: z.number(),
  action: z.number(),
  score: z.number(),
  type_match: z.boolean(),
  extract_match: z.boolean(),
  hit: z.boolean().nullable(),
});
const vectorsSchema = z.object({
  vectors: z.array(
    z.object({
      name: z.string(),
      note: z.string(),
      response: z.string(),
      gt: groundTruthSchema,
      expect: z.object({ mobile_r1: expectSchema, studio_lenient: expectSchema }),
    }),
  ),
});
const { vectors } = vectorsSchema.parse(JSON.parse(readFileSync(VECTORS_PATH, "utf8")));

type Expected = z.infer<typeof expectSchema>;
function snake(r: RewardResult): Expected {
  return { format: r.format, action: r.action, score: r.score, type_match: r.typeMatch, extract_match: r.extractMatch, hit: r.hit };
}
function expectClose(actual: Expected, expected: Expected, where: string) {
  const { score, ...rest } = actual;
  const { score: expectedScore, ...expectedRest } = expected;
  expect(rest, where).toEqual(expectedRest);
  expect(score, `${where} score`).toBeCloseTo(expectedScore, 9);
}

describe("mobile-r1 and studio-lenient reward vectors (TypeScript)", () => {
  it("has a vector for every edge case the rules name", () => {
    const names = vectors.map((v) => v.name).join(" ");
    for (const topic of ["border", "degenerate", "type_", "swipe", "terminate", "broken_json", "harmful", "neutral", "system_button"]) {
      expect(names).toContain(topic);
    }
  });

  it.each(vectors.map((v) => [v.name, v] as const))("%s", (name, v) => {
    expectClose(snake(mobileR1Reward(v.response, v.gt)), v.expect.mobile_r1, `${name} mobile-r1`);
    expectClose(snake(studioLenientReward(v.response, v.gt)), v.expect.studio_lenient, `${name} studio-lenient`);
  });
});

const pythonResultSchema = z.array(
  z.object({
    name: z.string(),
    mobile_r1: expectSchema.extend({ parsed: z.boolean() }),
    studio_lenient: expectSchema.extend({ parsed: z.boolean() }),
  }),
);

describe("mobile-r1 and studio-lenient reward vectors (Python plugin, standard library only)", () => {
  const run = spawnSync("python3", ["-B", "-I", "-S", PLUGIN_PATH, "--vectors", VECTORS_PATH], { encoding: "utf8" });

  it("runs without third-party packages", () => {
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  const results = run.status === 0 ? pythonResultSchema.parse(JSON.parse(run.stdout)) : [];
  it.each(vectors.map((v, i) => [v.name, v, i] as const))("%s", (name, v, i) => {
    const r = results[i];
    expect(r?.name).toBe(name);
    const { parsed: _m, ...m } = r!.mobile_r1;
    const { parsed: _u, ...u } = r!.studio_lenient;
    expectClose(m, v.expect.mobile_r1, `${name} mobile-r1 (python)`);
    expectClose(u, v.expect.studio_lenient, `${name} studio-lenient (python)`);
  });

  it("verl compute_score routes by data_source and returns a dict with a float score", () => {
    const v = vectors.find((x) => x.name === "click_far")!;
    const script = [
      "import importlib.util, json, sys",
      `spec = importlib.util.spec_from_file_location('p', ${JSON.stringify(PLUGIN_PATH)})`,
      "p = importlib.util.module_from_spec(spec); spec.loader.exec_module(p)",
      "gt = sys.stdin.read(); resp = json.loads(gt)['response']; gt = json.dumps(json.loads(gt)['gt'])",
      "print(json.dumps([p.compute_score(s, resp, gt, {}) for s in ('trajectory_studio_mobile_r1', 'trajectory_studio_lenient', 'trajectory_studio_ui_s1')]))",
    ].join("\n");
    const out = spawnSync("python3", ["-B", "-I", "-S", "-c", script], { input: JSON.stringify(v), encoding: "utf8" });
    expect(out.stderr).toBe("");
    const [mobile, lenient, uis1] = z.array(z.object({ score: z.number() })).parse(JSON.parse(out.stdout));
    expect(mobile!.score).toBe(1);
    expect(lenient!.score).toBeCloseTo(0.55, 9);
    // The response is in Mobile-R1's layout, which UI-S1's parser cannot read: everything is 0.
    expect(uis1!.score).toBe(0);
  });

  it("registers ms-swift ORMs that read the GRPO columns (with a stand-in swift.plugin)", () => {
    // A minimal stand-in for ms-swift's plugin registry: the plugin only needs ORM and orms.
    const fake = mkdtempSync(path.join(os.tmpdir(), "fake-swift-"));
    mkdirSync(path.join(fake, "swift"));
    writeFileSync(path.join(fake, "swift", "__init__.py"), "");
    writeFileSync(path.join(fake, "swift", "plugin.py"), "class ORM:\n    pass\norms = {}\n");
    const hit = vectors.find((x) => x.name === "click_inside_box")!;
    const miss = vectors.find((x) => x.name === "click_far")!;
    const script = [
      "import importlib.util, json, sys",
      `spec = importlib.util.spec_from_file_location('p', ${JSON.stringify(PLUGIN_PATH)})`,
      "p = importlib.util.module_from_spec(spec); spec.loader.exec_module(p)",
      "from swift.plugin import orms",
      "rows = json.loads(sys.stdin.read())",
      "cols = {k: [r['gt'][k] for r in rows] for k in rows[0]['gt']}",
      "cols['gt_action'] = [json.dumps(a) for a in cols['gt_action']]  # ms-swift columns hold it as a JSON string",
      "completions = [r['response'] for r in rows]",
      "print(json.dumps({name: orms[name]()(completions, **cols) for name in sorted(orms)}))",
    ].join("\n");
    const out = spawnSync("python3", ["-B", "-S", "-c", script], {
      input: JSON.stringify([hit, miss]),
      encoding: "utf8",
      env: { ...process.env, PYTHONPATH: fake },
    });
    expect(out.stderr).toBe("");
    expect(JSON.parse(out.stdout)).toEqual({
      mobile_r1_action: [1, 0],
      mobile_r1_format: [1, 1],
      studio_lenient_step: [1, 0.55],
      ui_s1_step: [0, 0],
    });
  });
});
