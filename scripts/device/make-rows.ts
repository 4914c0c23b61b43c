// Writes the bridge's trainer rows for the device check (scripts/device/check_rows.py): the paired test
// export (real cookbook screenshots, steps a person changed, harmful and unchanged steps) through sft,
// dpo, critic and prm for each target, into the folder given (default .tmp/device/rows).
// Run here: npx tsx scripts/device/make-rows.ts [out-dir]; then carry the folder to the GPU machine.
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { runBridge } from "@/lib/bridge/cli";
import { pairedExport } from "@/lib/bridge/preference-fixtures";

const out = path.resolve(process.argv[2] ?? ".tmp/device/rows");
const RUNS: [string, string[]][] = [
  ["sft-ms-swift", ["sft", "--target", "ms-swift"]],
  ["sft-llamafactory", ["sft", "--target", "llamafactory"]],
  ["sft-ms-swift-rel1000", ["sft", "--target", "ms-swift", "--coords", "qwen3-rel1000"]],
  ["dpo-ms-swift", ["dpo", "--target", "ms-swift"]],
  ["dpo-llamafactory", ["dpo", "--target", "llamafactory"]],
  ["critic", ["critic"]],
  ["prm", ["prm"]],
  // The same rows as hub-ready Parquet shards (images embedded as {bytes, path}) and WebDataset tars.
  ["sft-ms-swift-parquet", ["sft", "--target", "ms-swift", "--shards", "parquet", "--license", "CC-BY-4.0"]],
  ["dpo-ms-swift-parquet", ["dpo", "--target", "ms-swift", "--shards", "parquet", "--license", "CC-BY-4.0"]],
  ["grpo-verl-parquet", ["grpo", "--target", "verl", "--shards", "parquet", "--license", "CC-BY-4.0"]],
  ["sft-ms-swift-webdataset", ["sft", "--target", "ms-swift", "--shards", "webdataset", "--license", "CC-BY-4.0"]],
];

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const { dir } = await pairedExport();
for (const [name, args] of RUNS) {
  const lines: string[] = [];
  const sink = { write: (s: string) => lines.push(s) > 0 };
  const code = await runBridge([args[0]!, dir, "--out", path.join(out, name), ...args.slice(1)], { stdout: sink, stderr: sink });
  process.stdout.write(`${name}: exit ${code}\n`);
  if (code !== 0) {
    process.stdout.write(lines.join(""));
    process.exit(1);
  }
}
