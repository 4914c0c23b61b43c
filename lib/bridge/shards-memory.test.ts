// Shards are streamed: at 120k rows a run's peak memory stays where a 12k-row run's is (each run in its own
// process, so the peak is the writer's alone), for both formats.
import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { once } from "node:events";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./test-fixtures";

const run = promisify(execFile);

/** An output folder as `bridge sft` leaves it: `rows` JSON lines naming 64 small screenshots in turn. */
async function bigOutput(rows: number): Promise<string> {
  const dir = await tempDir("bridge-shards-big-");
  await mkdir(path.join(dir, "images"));
  const names: string[] = [];
  for (let i = 0; i < 64; i++) {
    const png = await sharp({ create: { width: 28, height: 56, channels: 3, background: { r: i * 4, g: 255 - i * 4, b: 90 } } })
      .png()
      .toBuffer();
    const name = `${(await import("node:crypto")).createHash("sha256").update(png).digest("hex")}.png`;
    await writeFile(path.join(dir, "images", name), png);
    names.push(name);
  }
  const out = createWriteStream(path.join(dir, "mobile_use_sft.jsonl"));
  const filler = "点击搜索框，输入要找的商品名称。".repeat(20);
  for (let i = 0; i < rows; i++) {
    const row = {
      messages: [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: `Step ${i}: ${filler}<image>` },
        {
          role: "assistant",
          content: `<think>\n${filler}\n</think>\n<tool_call>\n{"action": "click", "coordinate": [${i % 1000}, 5]}\n</tool_call>`,
        },
      ],
      images: [`images/${names[i % names.length]}`],
    };
    if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return dir;
}

/** Run writeShards in a fresh process; returns its peak RSS (bytes), seconds and summary. */
async function shardInChild(dir: string, format: string): Promise<{ maxRss: number; seconds: number; rows: number; files: number }> {
  const script = `
    import { writeShards } from ${JSON.stringify(path.resolve("lib/bridge/shards.ts"))};
    const t = performance.now();
    const s = await writeShards({ format: ${JSON.stringify(format)}, outDir: ${JSON.stringify(dir)}, dataFile: ${JSON.stringify(path.join(dir, "mobile_use_sft.jsonl"))}, maxShardBytes: 16_000_000, maxRowGroupBytes: 4_000_000 });
    console.log(JSON.stringify({ maxRss: process.resourceUsage().maxRSS * 1024, seconds: (performance.now() - t) / 1000, rows: s.rows, files: s.files.length }));
  `;
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split("\n").pop()!) as { maxRss: number; seconds: number; rows: number; files: number };
}

describe("shards at 100k+ rows", () => {
  // Each input is generated once and sharded in both formats (each format cleans only its own shards).
  let small: string;
  let large: string;
  beforeAll(async () => {
    small = await bigOutput(12_000);
    large = await bigOutput(120_000);
  }, 300_000);

  for (const format of ["parquet", "webdataset"]) {
    it(`${format}: peak memory does not grow with the number of rows`, async () => {
      const a = await shardInChild(small, format);
      const b = await shardInChild(large, format);
      console.log(
        `${format}: 12k rows ${(a.maxRss / 2 ** 20).toFixed(0)} MiB ${a.seconds.toFixed(1)} s; 120k rows ${(b.maxRss / 2 ** 20).toFixed(0)} MiB ${b.seconds.toFixed(1)} s, ${b.files} shards`,
      );
      expect(b.rows).toBe(120_000);
      expect(b.files).toBeGreaterThan(1);
      // Ten times the rows: 108k more rows of about 1.1 kB of JSON each (over 500 MB as JavaScript objects, were
      // they held; one row group holding all of them peaked at 705 MiB) move the peak by less than 64 MiB; both
      // runs fill several 4 MB row groups and 16 MB shards.
      expect(b.maxRss - a.maxRss).toBeLessThan(64 * 2 ** 20);
    }, 600_000);
  }
});
