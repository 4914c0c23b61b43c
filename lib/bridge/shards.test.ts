// Hub-ready shards read back by readers the bridge does not use to write them: DuckDB (its own C++ Parquet
// reader, not hyparquet) for the Parquet shards, tar-stream's extractor for the WebDataset tars.
import { createReadStream } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { DuckDBInstance } from "@duckdb/node-api";
import { extract } from "tar-stream";
import { beforeAll, describe, expect, it } from "vitest";
import { runBridge } from "./cli";
import { captureIo, readJsonl, standardExport, tempDir } from "./test-fixtures";

async function duck<T = Record<string, unknown>>(sql: string): Promise<T[]> {
  const db = await DuckDBInstance.create(":memory:");
  const c = await db.connect();
  const r = await c.runAndReadAll(sql);
  const rows = r.getRowObjectsJS() as T[];
  c.closeSync();
  return rows;
}

/** Every member of a tar, in order, as tar-stream's extractor reads it. */
async function readTar(file: string): Promise<{ name: string; data: Buffer }[]> {
  const members: { name: string; data: Buffer }[] = [];
  const ex = extract();
  const done = new Promise<void>((resolve, reject) => {
    ex.on("entry", (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: unknown) => chunks.push(c as Buffer));
      stream.on("end", () => {
        members.push({ name: header.name, data: Buffer.concat(chunks) });
        next();
      });
      stream.resume();
    });
    ex.on("finish", resolve);
    ex.on("error", reject);
  });
  createReadStream(file).pipe(ex);
  await done;
  return members;
}

const run = promisify(execFile);
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("bridge --shards parquet", () => {
  let exportDir: string;
  let out: string;
  let code: number;
  let rows: { messages: unknown; images: string[] }[];
  let err: string;
  beforeAll(async () => {
    exportDir = (await standardExport()).dir;
    out = await tempDir();
    const io = captureIo();
    // Tiny limits so the test sees several shards and row groups: the screenshots are 574 kB (en) and 230 kB (zh).
    code = await runBridge(
      [
        "sft",
        exportDir,
        "--out",
        out,
        "--target",
        "ms-swift",
        "--shards",
        "parquet",
        "--shard-bytes",
        "1300000",
        "--row-group-bytes",
        "600000",
        "--license",
        "cc-by-4.0",
      ],
      io,
    );
    err = io.err();
    rows = (await readJsonl(path.join(out, "mobile_use_sft.jsonl"))) as typeof rows;
  }, 120_000);

  it("writes shards named as datasets names them, every row once, read by DuckDB", async () => {
    expect(code, err).toBe(0);
    const files = (await readdir(path.join(out, "data"))).sort();
    expect(files.length).toBeGreaterThan(1);
    files.forEach((f, i) => expect(f).toBe(`train-${String(i).padStart(5, "0")}-of-${String(files.length).padStart(5, "0")}.parquet`));
    const [{ n }] = (await duck<{ n: bigint }>(`select count(*) as n from read_parquet('${out}/data/*.parquet')`)) as [{ n: bigint }];
    expect(Number(n)).toBe(rows.length);
    for (const f of files) expect((await stat(path.join(out, "data", f))).size).toBeLessThanOrEqual(1_300_000);
  });

  it("embeds each screenshot as an Image {bytes, path} struct holding the file's bytes", async () => {
    const got = await duck<{ images: { bytes: Uint8Array; path: string }[]; messages: { role: string; content: string }[] }>(
      `select images, messages from read_parquet('${out}/data/*.parquet') order by filename, file_row_number`,
    );
    expect(got).toHaveLength(rows.length);
    for (const [i, row] of got.entries()) {
      const want = rows[i]!;
      expect(row.messages).toEqual(want.messages);
      expect(row.images).toHaveLength(want.images.length);
      for (const [j, img] of row.images.entries()) {
        const file = await readFile(path.join(out, want.images[j]!));
        expect(img.path).toBe(path.basename(want.images[j]!));
        expect(sha(img.bytes)).toBe(sha(file));
      }
    }
    const [schema] = await duck<{ t: string }>(
      `select typeof(images) as t from read_parquet('${out}/data/train-00000-of-*.parquet') limit 1`,
    );
    expect(schema?.t).toBe("STRUCT(bytes BLOB, path VARCHAR)[]");
  });

  it("keeps row groups within the limit (several per shard) and the datasets features in the huggingface metadata", async () => {
    const groups = await duck<{ file_name: string; row_group_id: bigint; row_group_num_rows: bigint; bytes: bigint }>(
      `select file_name, row_group_id, any_value(row_group_num_rows) as row_group_num_rows, sum(total_uncompressed_size) as bytes
       from parquet_metadata('${out}/data/*.parquet') group by file_name, row_group_id`,
    );
    expect(groups.length).toBeGreaterThan((await readdir(path.join(out, "data"))).length);
    // A group over the limit holds a single row (a row is never split).
    for (const g of groups) if (Number(g.bytes) > 600_000) expect(Number(g.row_group_num_rows)).toBe(1);
    expect(groups.reduce((n, g) => n + Number(g.row_group_num_rows), 0)).toBe(rows.length);
    const kv = await duck<{ key: Uint8Array; value: Uint8Array }>(
      `select key, value from parquet_kv_metadata('${out}/data/train-00000-of-*.parquet')`,
    );
    const hf = kv.find((k) => Buffer.from(k.key).toString() === "huggingface");
    expect(hf).toBeDefined();
    const meta = JSON.parse(Buffer.from(hf!.value).toString()) as { info: { features: Record<string, unknown> } };
    expect(meta.info.features).toEqual({
      messages: { feature: { role: { dtype: "string", _type: "Value" }, content: { dtype: "string", _type: "Value" } }, _type: "List" },
      images: { feature: { _type: "Image" }, _type: "List" },
    });
  });

  it("writes README.md with the hub's front matter and croissant.json", async () => {
    const readme = await readFile(path.join(out, "README.md"), "utf8");
    expect(readme).toMatch(/^---\nlicense: cc-by-4.0\n/);
    expect(readme).toContain("configs:\n- config_name: default\n  data_files:\n  - split: train\n    path: data/train-*.parquet");
    expect(readme).toContain('- name: "images"\n    list: image');
    expect(readme).toContain("- Trajectories: 3 (1 discarded by reviewers)");
    const croissant = JSON.parse(await readFile(path.join(out, "croissant.json"), "utf8")) as {
      distribution: { sha256?: string; contentUrl?: string }[];
    };
    for (const d of croissant.distribution.filter((x) => x.contentUrl)) {
      expect(d.sha256).toBe(sha(await readFile(path.join(out, d.contentUrl!))));
    }
  });
});

describe("bridge --shards webdataset", () => {
  it("writes tars whose samples are <key>.json plus <key>.<i>.png, keys without dots, members of a sample together", async () => {
    const exportDir = (await standardExport()).dir;
    const out = await tempDir();
    const io = captureIo();
    const code = await runBridge(
      ["grpo", exportDir, "--out", out, "--target", "verl", "--shards", "webdataset", "--license", "CC-BY-4.0", "--shard-bytes", "1300000"],
      io,
    );
    expect(code, io.err()).toBe(0);
    const files = (await readdir(path.join(out, "data"))).sort();
    expect(files.length).toBeGreaterThan(1);
    expect(files.every((f) => /^train-\d{5}-of-\d{5}\.tar$/.test(f))).toBe(true);
    const samples = new Map<string, Map<string, Buffer>>();
    let previousKey = "";
    for (const f of files) {
      for (const m of await readTar(path.join(out, "data", f))) {
        const dot = m.name.indexOf(".");
        const key = m.name.slice(0, dot);
        if (key !== previousKey) expect(samples.has(key), `${key} split across members`).toBe(false);
        previousKey = key;
        if (!samples.has(key)) samples.set(key, new Map());
        samples.get(key)!.set(m.name.slice(dot + 1), m.data);
      }
    }
    const summary = JSON.parse(await readFile(path.join(out, "mobile_use_grpo.summary.json"), "utf8")) as { rows: number };
    expect(samples.size).toBe(summary.rows);
    for (const [key, members] of samples) {
      expect(key).not.toContain(".");
      const row = JSON.parse(members.get("json")!.toString()) as { images: { image: string; max_pixels: number }[]; data_source: string };
      expect(row.data_source).toBeTruthy();
      for (const img of row.images) {
        const png = members.get(img.image);
        expect(png, `${key}.${img.image}`).toBeDefined();
        expect(png!.subarray(1, 4).toString()).toBe("PNG");
      }
    }
    expect(await readFile(path.join(out, "README.md"), "utf8")).toContain("path: data/train-*.tar");
    // GNU tar, a second reader, lists the same members.
    const listed = (
      await Promise.all(files.map(async (f) => (await run("tar", ["-tf", path.join(out, "data", f)])).stdout.trim().split("\n")))
    ).flat();
    expect(listed.length).toBe([...samples.values()].reduce((n, m) => n + m.size, 0));
  }, 120_000);

  it("refuses --shards on a command that writes no rows, and --row-group-bytes with webdataset", async () => {
    const io = captureIo();
    expect(await runBridge(["stats", "x", "--shards", "parquet", "--license", "CC-BY-4.0"], io)).toBe(2);
    expect(io.err()).toContain("--shards is for sft, grpo, dpo, critic, prm, traj, not stats");
    const io2 = captureIo();
    expect(
      await runBridge(["sft", "x", "--out", "y", "--target", "ms-swift", "--shards", "webdataset", "--row-group-bytes", "5"], io2),
    ).toBe(2);
    expect(io2.err()).toContain("--row-group-bytes is for --shards parquet");
  });
});

describe("--shards parquet for every row command and target", () => {
  // [command and target, summary file, the summary's count of rows written]
  const runs: [string[], string, string][] = [
    [["sft", "--target", "llamafactory"], "mobile_use_sft", "rows"],
    [["grpo", "--target", "ms-swift"], "mobile_use_grpo", "rows"],
    [["grpo", "--target", "verl"], "mobile_use_grpo", "rows"],
    [["critic"], "gui_critic", "records"],
    [["prm"], "mobile_use_prm", "rows"],
    [["traj", "--target", "ui-s1"], "ui_s1_trajectories", "written"],
  ];
  for (const [args, name, count] of runs) {
    it(`${args.join(" ")}: DuckDB reads as many rows as the command wrote, screenshots embedded`, async () => {
      const exportDir = (await standardExport()).dir;
      const out = await tempDir();
      const io = captureIo();
      const [command, ...rest] = args;
      const code = await runBridge(
        [command!, exportDir, "--out", out, ...rest, "--shards", "parquet", "--license", "CC-BY-4.0", "--allow-problems"],
        io,
      );
      expect(code, io.err()).toBe(0);
      const summary = JSON.parse(await readFile(path.join(out, `${name}.summary.json`), "utf8")) as Record<string, number>;
      const [{ n }] = (await duck<{ n: bigint }>(`select count(*) as n from read_parquet('${out}/data/*.parquet')`)) as [{ n: bigint }];
      expect(summary[count]).toBeGreaterThan(0);
      expect(Number(n)).toBe(summary[count]);
      const kv = await duck<{ value: Uint8Array }>(
        `select value from parquet_kv_metadata('${out}/data/*.parquet') where decode(key) = 'huggingface'`,
      );
      const features = JSON.stringify(JSON.parse(Buffer.from(kv[0]!.value).toString()));
      // Every output names screenshots somewhere: they became Image features, and no row still holds an images/ path.
      expect(features).toContain('{"_type":"Image"}');
      const [{ paths }] = (await duck<{ paths: bigint }>(
        `select count(*) as paths from read_parquet('${out}/data/*.parquet') t where cast(t as varchar) like '%images/%'`,
      )) as [{ paths: bigint }];
      expect(Number(paths)).toBe(0);
    }, 120_000);
  }

  it("an output without rows (dpo where nobody changed a response) gets no shard, and the card says 0 rows", async () => {
    const exportDir = (await standardExport()).dir;
    const out = await tempDir();
    const io = captureIo();
    expect(
      await runBridge(["dpo", exportDir, "--out", out, "--target", "ms-swift", "--shards", "parquet", "--license", "CC-BY-4.0"], io),
      io.err(),
    ).toBe(0);
    expect(await readdir(path.join(out, "data"))).toEqual([]);
    expect(io.err()).toContain("no rows: no shards written");
    expect(await readFile(path.join(out, "README.md"), "utf8")).toContain("(0 rows, 0 embedded screenshots, 0 parquet shards)");
  }, 120_000);

  it("grpo verl: each image struct keeps max_pixels beside the embedded Image", async () => {
    const exportDir = (await standardExport()).dir;
    const out = await tempDir();
    const io = captureIo();
    expect(
      await runBridge(["grpo", exportDir, "--out", out, "--target", "verl", "--shards", "parquet", "--license", "CC-BY-4.0"], io),
      io.err(),
    ).toBe(0);
    const [row] = await duck<{ t: string; mp: bigint; png: string }>(
      `select typeof(images) as t, images[1].max_pixels as mp, decode(images[1].image.bytes[2:4]) as png from read_parquet('${out}/data/*.parquet') limit 1`,
    );
    expect(row?.t).toBe("STRUCT(image STRUCT(bytes BLOB, path VARCHAR), max_pixels BIGINT, min_pixels BIGINT)[]");
    expect(Number(row?.mp)).toBeGreaterThan(0);
    expect(row?.png).toBe("PNG");
    expect(
      await runBridge(
        ["grpo", exportDir, "--out", out, "--target", "verl", "--shards", "parquet", "--license", "CC-BY-4.0", "--embed-images"],
        captureIo(),
      ),
    ).toBe(2);
  }, 120_000);
});
