import { describe, expect, it } from "vitest";
import {
  addRow,
  emptyHints,
  estimateTextTokens,
  hydraOverride,
  imageTokens,
  lengthSetting,
  promptTokens,
  shellQuote,
  trainerCommands,
  trainerSettings,
} from "./trainer-hints";

describe("token estimates", () => {
  it("counts a resized image as pixels / 784 and text as an upper estimate", () => {
    expect(imageTokens({ width: 672, height: 1484 })).toBe(1272);
    expect(estimateTextTokens("点击购物车")).toBe(5);
    expect(estimateTextTokens("abcdef")).toBe(2);
    // system + user messages (5 template tokens each), one image (+2) and the generation prompt (3).
    expect(promptTokens([{ content: "abc" }, { content: "de<image>f" }], [{ width: 28, height: 28 }])).toBe(1 + 5 + 1 + 5 + 1 + 2 + 3);
  });
  it("keeps maxima and turns them into length settings with room for the estimate", () => {
    const h = addRow(addRow(emptyHints(1003520, 3136), { imageTokens: 10, promptTokens: 900, responseTokens: 50 }), {
      imageTokens: 20,
      promptTokens: 800,
      responseTokens: 200,
    });
    expect(h).toMatchObject({ rows: 2, maxImageTokens: 20, maxPromptTokens: 900, maxResponseTokens: 200, maxSequenceTokens: 1000 });
    expect(lengthSetting(1000)).toBe(1280);
    expect(lengthSetting(10)).toBe(256);
  });
});

describe("trainer commands", () => {
  const hints = {
    maxPixels: 1003520,
    minPixels: 3136,
    rows: 3,
    maxImageTokens: 1272,
    maxPromptTokens: 2000,
    maxSequenceTokens: 2200,
    maxResponseTokens: 200,
  };
  it("quote folders with spaces and CJK for the shell, and carry pixel limits, image root and lengths", () => {
    expect(shellQuote("/data/导出 v1")).toBe("'/data/导出 v1'");
    expect(shellQuote("/data/x")).toBe("/data/x");
    expect(trainerSettings("ms-swift", hints, "/d/导出 v1")).toEqual([
      "MAX_PIXELS=1003520 MIN_PIXELS=3136 ROOT_IMAGE_DIR='/d/导出 v1'",
      "--max_length 2560",
    ]);
    expect(trainerSettings("llamafactory", hints, "/d")).toEqual([
      "dataset_dir: /d",
      "media_dir: /d",
      "image_max_pixels: 1003520",
      "image_min_pixels: 3136",
      "cutoff_len: 2560",
    ]);
    expect(trainerSettings("verl", hints, "/d")[0]).toBe("data.max_prompt_length=2304");
    // A YAML plain scalar may not hold ": " or " #"; such a folder is written as a double-quoted string.
    expect(trainerSettings("llamafactory", hints, "/d/导出 v1: a #b").slice(0, 2)).toEqual([
      'dataset_dir: "/d/导出 v1: a #b"',
      'media_dir: "/d/导出 v1: a #b"',
    ]);
    expect(trainerSettings("llamafactory", hints, "/d/导出 v1")[0]).toBe('dataset_dir: "/d/导出 v1"');
    // Hydra overrides (verl, UI-S1): the value quoted for Hydra, the whole argument for the shell.
    expect(hydraOverride("data.train_files", "/d/x.parquet")).toBe("data.train_files=/d/x.parquet");
    expect(hydraOverride("data.train_files", "/d/导出 v1/x.parquet")).toBe(`'data.train_files="/d/导出 v1/x.parquet"'`);
    expect(hydraOverride("data.train_files", '/d/it\'s "v1"/x.parquet')).toBe(`'data.train_files="/d/it'\\''s \\"v1\\"/x.parquet"'`);
    const cmds = trainerCommands("/x/导出 v1", hints);
    expect(cmds.map((c) => c.trainer)).toEqual(["ms-swift", "llamafactory", "verl", "ui-s1"]);
    expect(cmds[0]!.bridge).toBe(
      "npm run studio -- bridge sft '/x/导出 v1' --target ms-swift --out '/x/导出 v1-sft-ms-swift' --max-pixels 1003520",
    );
    expect(cmds[2]!.bridge).toContain("--embed-images");
    expect(trainerCommands("/x", null).every((c) => c.settings.length === 0)).toBe(true);
  });
});
