// Exports that travel: every trainer file names its images so that the trainer's own loader opens
// them after the output folder is copied to a folder whose path holds spaces and Chinese characters.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { emptyHints, measureTrajectory, type TrainerHints } from "@/lib/domain/trainer-hints";
import { canonicalTrajectorySchema } from "@/lib/domain/trajectory";
import { runBridge } from "./cli";
import { captureIo, readJsonl, standardExport, tempDir } from "./test-fixtures";
import {
  fetchImage,
  llamaFactoryImage,
  LoaderError,
  msSwiftImage,
  pngSize,
  uiS1Image,
  verlImage,
  type OpenedImage,
} from "./trainer-loaders";

const WEIRD = "导出 v1 copy";

/** Screenshot sha256 -> its size, from the export the rows were made from. */
let shots: Map<string, { width: number; height: number }>;
/** Where the copies live and an unrelated working directory. */
let moved: string;
let elsewhere: string;
let exportDir: string;

function expectScreenshot(img: OpenedImage) {
  const sha = createHash("sha256").update(img.bytes).digest("hex");
  const size = shots.get(sha);
  expect(size, `opened bytes ${sha.slice(0, 12)}… are not one of the export's screenshots`).toBeDefined();
  expect(pngSize(img.bytes)).toEqual(size);
}

async function run(command: string[], out: string) {
  const io = captureIo();
  const code = await runBridge([...command.slice(0, 1), exportDir, "--out", out, ...command.slice(1)], io);
  expect(code, io.err()).toBe(0);
  return io;
}

beforeAll(async () => {
  // The export itself already sits in an awkward folder, and the outputs are made next to it.
  const base = await tempDir("travel-");
  exportDir = path.join(base, "导出 v1");
  await mkdir(exportDir);
  const fixture = await standardExport();
  await cp(fixture.dir, exportDir, { recursive: true });
  shots = new Map([fixture.en, fixture.zh].map((s) => [s.sha256, { width: s.width, height: s.height }]));
  const made = path.join(base, "made here");
  await run(["sft", "--target", "ms-swift"], path.join(made, "swift sft"));
  await run(["sft", "--target", "llamafactory"], path.join(made, "lf sft"));
  await run(["grpo", "--target", "ms-swift"], path.join(made, "swift grpo"));
  await run(["grpo", "--target", "verl"], path.join(made, "verl"));
  await run(["grpo", "--target", "verl", "--embed-images"], path.join(made, "verl embedded"));
  await run(["traj", "--target", "ui-s1"], path.join(made, "ui-s1"));
  // Copy everything to the training machine's folder, then remove the export and the originals:
  // nothing may still point back at them.
  moved = path.join(await tempDir("cluster-"), WEIRD);
  await cp(made, moved, { recursive: true });
  await rm(base, { recursive: true, force: true });
  elsewhere = await tempDir("cwd-");
});

describe("every image opens after the output folder is copied to …/导出 v1 copy/", () => {
  it("ms-swift (SFT and GRPO): relative names resolved by ROOT_IMAGE_DIR, from any working directory", async () => {
    for (const [folder, file] of [
      ["swift sft", "mobile_use_sft.jsonl"],
      ["swift grpo", "mobile_use_grpo.jsonl"],
    ] as const) {
      const root = path.join(moved, folder);
      const rows = z.array(z.object({ images: z.array(z.string()).min(1) })).parse(await readJsonl(path.join(root, file)));
      expect(rows.length).toBeGreaterThan(0);
      for (const ref of rows.flatMap((r) => r.images)) {
        expectScreenshot(msSwiftImage(ref, elsewhere, { ROOT_IMAGE_DIR: root }));
        // Without the root ms-swift cannot find them: the setting the bridge prints is needed.
        expect(() => msSwiftImage(ref, elsewhere)).toThrow(LoaderError);
      }
    }
  });

  it("LLaMA-Factory: relative names joined to media_dir, which defaults to dataset_dir", async () => {
    const root = path.join(moved, "lf sft");
    const info = JSON.parse(await readFile(path.join(root, "dataset_info.json"), "utf8")) as Record<string, { file_name: string }>;
    const rows = z
      .array(z.object({ images: z.array(z.string()).min(1) }))
      .parse(await readJsonl(path.join(root, info.mobile_use_sft!.file_name)));
    for (const ref of rows.flatMap((r) => r.images)) expectScreenshot(llamaFactoryImage(ref, elsewhere, { datasetDir: root }));
  });

  it("verl RLHFDataset + fetch_image: embedded bytes open anywhere; paths open from the output folder as working directory", async () => {
    // utf8: false reads un-annotated BYTE_ARRAY as bytes, as pyarrow (and so verl) does; strings stay strings.
    const embedded = (await parquetReadObjects({
      file: await asyncBufferFromFile(path.join(moved, "verl embedded", "mobile_use_grpo.parquet")),
      utf8: false,
    })) as {
      images: unknown[];
      data_source: unknown;
    }[];
    expect(typeof embedded[0]!.data_source).toBe("string");
    expect(embedded.length).toBe(6);
    for (const entry of embedded.flatMap((r) => r.images)) {
      const e = z
        .object({ bytes: z.instanceof(Uint8Array), max_pixels: z.bigint(), min_pixels: z.bigint() })
        .strict()
        .parse(entry);
      expect(Buffer.from(e.bytes.subarray(0, 8)).toString("hex")).toBe("89504e470d0a1a0a");
      expectScreenshot(verlImage(entry, elsewhere));
    }
    const byPath = (await parquetReadObjects({ file: await asyncBufferFromFile(path.join(moved, "verl", "mobile_use_grpo.parquet")) })) as {
      images: unknown[];
    }[];
    for (const entry of byPath.flatMap((r) => r.images)) {
      expectScreenshot(verlImage(entry, path.join(moved, "verl")));
      expect(() => verlImage(entry, elsewhere)).toThrow(LoaderError);
    }
  });

  it("UI-S1: screenshot names open from the output folder as working directory", async () => {
    const root = path.join(moved, "ui-s1");
    const rows = z
      .array(z.object({ steps: z.array(z.object({ screenshot: z.string() })) }))
      .parse(await readJsonl(path.join(root, "ui_s1_trajectories.jsonl")));
    const refs = rows.flatMap((r) => r.steps.map((s) => s.screenshot));
    expect(refs).toHaveLength(6);
    for (const ref of refs) expectScreenshot(uiS1Image(ref, root));
  });

  it("the loaders are strict: a percent-encoded file:// URL (what verl rows used to hold) does not open", () => {
    const file = path.join(moved, "verl", "images", `${[...shots.keys()][0]}.png`);
    const url = pathToFileURL(file).href;
    expect(url).toContain("%20");
    expect(() => fetchImage({ image: url }, elsewhere)).toThrow(LoaderError);
    // The same file named by its plain path opens, spaces and CJK as they are.
    expectScreenshot(fetchImage({ image: file }, elsewhere));
    expectScreenshot(fetchImage({ image: `file://${file}` }, elsewhere));
  });

  it("Python's own os.path and open() agree (ms-swift and LLaMA-Factory rules, standard library only)", async () => {
    const root = path.join(moved, "swift sft");
    const refs = z
      .array(z.object({ images: z.array(z.string()) }))
      .parse(await readJsonl(path.join(root, "mobile_use_sft.jsonl")))
      .flatMap((r) => r.images);
    const script = [
      "import hashlib, json, os, sys",
      "a = json.loads(sys.stdin.read())",
      "out = []",
      "for ref in a['refs']:",
      "    p = ref.strip()",
      // ms-swift load_file
      "    if not os.path.exists(p) and os.environ.get('ROOT_IMAGE_DIR') is not None: p = os.path.join(os.environ['ROOT_IMAGE_DIR'], p)",
      "    p = os.path.abspath(os.path.expanduser(p))",
      "    swift = hashlib.sha256(open(p, 'rb').read()).hexdigest()",
      // LLaMA-Factory _find_medias
      "    m = os.path.join(a['media_dir'], ref)",
      "    lf = hashlib.sha256(open(m if os.path.isfile(m) else ref, 'rb').read()).hexdigest()",
      "    out.append([swift, lf])",
      "print(json.dumps(out))",
    ].join("\n");
    const r = spawnSync("python3", ["-B", "-I", "-S", "-c", script], {
      cwd: elsewhere,
      env: { ...process.env, ROOT_IMAGE_DIR: root },
      input: JSON.stringify({ refs, media_dir: root }),
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    const hashes = JSON.parse(r.stdout) as [string, string][];
    expect(hashes).toHaveLength(refs.length);
    for (const [swift, lf] of hashes) {
      expect(shots.has(swift)).toBe(true);
      expect(lf).toBe(swift);
    }
  });
});

describe("--image-root: absolute names for where the folder will be on the training machine", () => {
  it("writes plain paths under the root (spaces and CJK kept), which every loader opens from anywhere", async () => {
    const fixture = await standardExport();
    exportDir = fixture.dir;
    shots = new Map([fixture.en, fixture.zh].map((s) => [s.sha256, { width: s.width, height: s.height }]));
    const cluster = path.join(await tempDir("root-"), "训练 数据", WEIRD);
    const made = await tempDir();
    await run(["sft", "--target", "ms-swift", "--image-root", cluster], path.join(made, "sft"));
    await run(["grpo", "--target", "verl", "--image-root", cluster], path.join(made, "verl"));
    await run(["traj", "--target", "ui-s1", "--image-root", cluster], path.join(made, "traj"));
    for (const name of ["sft", "verl", "traj"]) {
      await rm(cluster, { recursive: true, force: true });
      await mkdir(path.dirname(cluster), { recursive: true });
      await cp(path.join(made, name), cluster, { recursive: true });
      if (name === "sft") {
        const rows = z.array(z.object({ images: z.array(z.string()) })).parse(await readJsonl(path.join(cluster, "mobile_use_sft.jsonl")));
        for (const ref of rows.flatMap((r) => r.images)) {
          expect(ref.startsWith(`${cluster}/images/`)).toBe(true);
          expectScreenshot(msSwiftImage(ref, elsewhere));
          expectScreenshot(llamaFactoryImage(ref, elsewhere, { datasetDir: elsewhere }));
        }
      } else if (name === "verl") {
        const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(path.join(cluster, "mobile_use_grpo.parquet")) })) as {
          images: unknown[];
        }[];
        for (const entry of rows.flatMap((r) => r.images)) expectScreenshot(verlImage(entry, elsewhere));
      } else {
        const rows = z
          .array(z.object({ steps: z.array(z.object({ screenshot: z.string() })) }))
          .parse(await readJsonl(path.join(cluster, "ui_s1_trajectories.jsonl")));
        for (const s of rows.flatMap((r) => r.steps)) expectScreenshot(uiS1Image(s.screenshot, elsewhere));
      }
    }
  });

  it("refuses a relative root and --embed-images outside verl", async () => {
    const { dir } = await standardExport();
    const io = captureIo();
    expect(await runBridge(["sft", dir, "--out", await tempDir(), "--target", "ms-swift", "--image-root", "data/x"], io)).toBe(2);
    expect(io.err()).toContain("--image-root must be an absolute path");
    expect(await runBridge(["sft", dir, "--out", await tempDir(), "--target", "ms-swift", "--embed-images"], captureIo())).toBe(2);
  });
});

describe("trainer hints", () => {
  it("prints the settings the rows need: pixel limits, the image root and lengths that fit the longest row", async () => {
    const { dir } = await standardExport();
    const out = path.join(await tempDir(), "输出 1");
    const io = captureIo();
    expect(await runBridge(["sft", dir, "--out", out, "--target", "ms-swift", "--max-pixels", "1003520"], io)).toBe(0);
    const summary = JSON.parse(io.out()) as { hints: TrainerHints };
    // 1080x2400 at 1003520 -> 672x1484 = 1272 image tokens, the largest of the rows.
    expect(summary.hints.maxImageTokens).toBe(1272);
    expect(summary.hints.maxPromptTokens).toBeGreaterThan(1272 + 500); // the system prompt alone is ~2,000 characters
    expect(summary.hints.maxSequenceTokens).toBeGreaterThan(summary.hints.maxPromptTokens);
    expect(io.err()).toContain(`MAX_PIXELS=1003520 MIN_PIXELS=3136 ROOT_IMAGE_DIR='${out}'`);
    expect(io.err()).toMatch(/--max_length \d+/);
    const maxLength = Number(/--max_length (\d+)/.exec(io.err())![1]);
    expect(maxLength).toBeGreaterThanOrEqual(summary.hints.maxSequenceTokens);
    expect(maxLength % 256).toBe(0);
    const lf = captureIo();
    expect(await runBridge(["sft", dir, "--out", out, "--target", "llamafactory", "--max-pixels", "1003520"], lf)).toBe(0);
    expect(lf.err()).toContain(`media_dir: "${out}"`); // a YAML double-quoted string: the folder holds a space
    expect(lf.err()).toContain("image_max_pixels: 1003520");
    expect(lf.err()).toMatch(/cutoff_len: \d+/);
    // The exporter measures the same rows the same way (it writes manifest.trainer for the export page).
    let measured = emptyHints(1003520, 3136);
    for (const t of await readJsonl(path.join(dir, "trajectories.jsonl")))
      measured = measureTrajectory(measured, canonicalTrajectorySchema.parse(t), "mobile-use");
    expect(measured).toEqual(summary.hints);
    const verl = captureIo();
    expect(await runBridge(["grpo", dir, "--out", out, "--target", "verl", "--embed-images"], verl)).toBe(0);
    expect(verl.err()).toMatch(/data\.max_prompt_length=\d+/);
    expect(verl.err()).toContain("embedded in the parquet");
  });
});

// Keep the folder names honest: they must really hold spaces and CJK.
it("the test folders are named with spaces and Chinese characters", () => {
  expect(WEIRD).toMatch(/ /);
  expect(WEIRD).toMatch(/[\u4e00-\u9fff]/);
  expect(os.platform()).not.toBe("win32");
});
