// Hub-ready copies of a bridge output: Parquet shards with embedded images in the Hugging Face `datasets`
// layout, or WebDataset tars. Both are made from the rows the command already wrote (its JSON Lines file,
// or verl's parquet), streamed, so any command and any --target gets them the same way.
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from "node:fs/promises";
import { once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import { fileWriter, ParquetWriter, type ColumnSource, type SchemaElement } from "hyparquet-writer";
import { pack as tarPack } from "tar-stream";
import { IMAGES_DIR } from "./images";

export const SHARD_FORMATS = ["parquet", "webdataset"] as const;
export type ShardFormat = (typeof SHARD_FORMATS)[number];

/** Folder, inside the output folder, that holds the shards (the layout the hub's `data_files` globs read). */
export const SHARDS_DIR = "data";
/** The split every shard belongs to: the bridge writes training data. */
export const SHARD_SPLIT = "train";

/** `datasets` pushes Parquet shards of at most 500 MB (`config.MAX_SHARD_SIZE`). */
export const DEFAULT_PARQUET_SHARD_BYTES = 500_000_000;
/** `datasets` writes row groups of at most 100 MB for image datasets (`config.PARQUET_ROW_GROUP_SIZE_FOR_IMAGE_DATASETS` is counted in rows; the hub's viewer asks for <= 100 MB). */
export const DEFAULT_ROW_GROUP_BYTES = 100_000_000;
/** WebDataset recommends shards of about 1 GB. */
export const DEFAULT_TAR_SHARD_BYTES = 1_000_000_000;

export type ShardOptions = {
  format: ShardFormat;
  /** The command's output folder: its `images/` holds the screenshots rows name. */
  outDir: string;
  /** The rows: a JSON Lines file or a parquet file (verl) inside outDir. */
  dataFile: string;
  /** The `--image-root` the rows were written with: their paths start with `<imageRoot>/images/`. */
  imageRoot?: string;
  /** Largest shard in bytes (estimated before compression; images are PNGs, which do not compress further). */
  maxShardBytes?: number;
  /** Largest Parquet row group in bytes (same estimate). */
  maxRowGroupBytes?: number;
};

export type ShardSummary = {
  format: ShardFormat;
  /** Relative to outDir, in order. */
  files: string[];
  rows: number;
  images: number;
  /** Bytes of every shard on disk. */
  bytes: number;
  rowGroups?: number;
  /** The `datasets` features of the Parquet shards (the `huggingface` schema metadata), parquet only. */
  features?: HfFeatures;
};

/** A row column's type as inferred from every row (the union of what the rows hold). */
export type ColumnType =
  | { kind: "null" }
  | { kind: "bool" }
  | { kind: "int" }
  | { kind: "float" }
  | { kind: "string" }
  | { kind: "image" }
  /** Values of different shapes in one column: stored as their JSON text, so nothing is lost. */
  | { kind: "json" }
  | { kind: "list"; item: ColumnType }
  | { kind: "struct"; fields: Map<string, ColumnType> };

/** `datasets` Features as `Features.to_dict()` serialises them (datasets 4: `List`, `Value`, `Image`, dicts for structs). */
export type HfFeatures = { [name: string]: HfFeature };
export type HfFeature =
  | { _type: "Value"; dtype: "string" | "int64" | "float64" | "bool" }
  | { _type: "Image" }
  | { _type: "List"; feature: HfFeature }
  | HfFeatures;

const IMAGE_NAME = /^[0-9a-f]{64}\.png$/;

/** The file name (`<sha256>.png`) a row's string names in the output's images/, or undefined when it names none. */
export function imageNameOf(value: string, imageRoot: string | undefined): string | undefined {
  const prefix = imageRoot ? `${imageRoot.replace(/\/+$/, "")}/${IMAGES_DIR}/` : `${IMAGES_DIR}/`;
  if (!value.startsWith(prefix)) return undefined;
  const name = value.slice(prefix.length);
  return IMAGE_NAME.test(name) ? name : undefined;
}

const NULL: ColumnType = { kind: "null" };

/** The type of one value; strings naming a screenshot of images/ are images. */
function typeOf(value: unknown, imageRoot: string | undefined): ColumnType {
  if (value === null || value === undefined) return NULL;
  if (typeof value === "boolean") return { kind: "bool" };
  if (typeof value === "bigint") return { kind: "int" };
  if (typeof value === "number") return Number.isInteger(value) ? { kind: "int" } : { kind: "float" };
  if (typeof value === "string") return imageNameOf(value, imageRoot) ? { kind: "image" } : { kind: "string" };
  if (Array.isArray(value)) {
    let item: ColumnType = NULL;
    for (const v of value) item = mergeTypes(item, typeOf(v, imageRoot));
    return { kind: "list", item };
  }
  if (typeof value === "object") {
    const fields = new Map<string, ColumnType>();
    for (const [k, v] of Object.entries(value)) fields.set(k, typeOf(v, imageRoot));
    return { kind: "struct", fields };
  }
  return { kind: "json" };
}

/** The narrowest type holding both (a missing or null value fits any type: every column is nullable). */
export function mergeTypes(a: ColumnType, b: ColumnType): ColumnType {
  if (a.kind === "null") return b;
  if (b.kind === "null") return a;
  if (a.kind === "json" || b.kind === "json") return { kind: "json" };
  if (a.kind === "list" && b.kind === "list") return { kind: "list", item: mergeTypes(a.item, b.item) };
  if (a.kind === "struct" && b.kind === "struct") {
    const fields = new Map(a.fields);
    for (const [k, t] of b.fields) fields.set(k, mergeTypes(fields.get(k) ?? NULL, t));
    return { kind: "struct", fields };
  }
  if (a.kind === b.kind) return a;
  const pair = new Set([a.kind, b.kind]);
  if (pair.size === 2 && pair.has("int") && pair.has("float")) return { kind: "float" };
  // A column naming screenshots in some rows and holding other text in others stays text.
  if (pair.size === 2 && pair.has("image") && pair.has("string")) return { kind: "string" };
  return { kind: "json" };
}

/** A column nobody ever filled (always null, or an always-empty list's items) is written as text. */
function settle(t: ColumnType): ColumnType {
  if (t.kind === "null") return { kind: "string" };
  if (t.kind === "list") return { kind: "list", item: settle(t.item) };
  if (t.kind === "struct") return { kind: "struct", fields: new Map([...t.fields].map(([k, f]) => [k, settle(f)])) };
  return t;
}

/** The `datasets` feature of a settled column type. */
export function hfFeature(t: ColumnType): HfFeature {
  switch (t.kind) {
    case "bool":
      return { dtype: "bool", _type: "Value" };
    case "int":
      return { dtype: "int64", _type: "Value" };
    case "float":
      return { dtype: "float64", _type: "Value" };
    case "image":
      return { _type: "Image" };
    case "list":
      return { feature: hfFeature(t.item), _type: "List" };
    case "struct":
      return Object.fromEntries([...t.fields].map(([k, f]) => [k, hfFeature(f)]));
    default:
      return { dtype: "string", _type: "Value" };
  }
}

/**
 * Parquet schema elements of a column, in the layout pyarrow writes for the Arrow type `datasets` uses:
 * every field OPTIONAL (nullable), lists as the 3-level LIST (`list` / `element`), an Image as the struct
 * `{bytes: binary, path: string}`.
 */
function schemaElements(name: string, t: ColumnType): SchemaElement[] {
  const string: SchemaElement = { name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" };
  switch (t.kind) {
    case "bool":
      return [{ name, type: "BOOLEAN", repetition_type: "OPTIONAL" }];
    case "int":
      return [{ name, type: "INT64", repetition_type: "OPTIONAL" }];
    case "float":
      return [{ name, type: "DOUBLE", repetition_type: "OPTIONAL" }];
    case "image":
      return [
        { name, repetition_type: "OPTIONAL", num_children: 2 },
        { name: "bytes", type: "BYTE_ARRAY", repetition_type: "OPTIONAL" },
        { name: "path", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" },
      ];
    case "list":
      return [
        { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
        { name: "list", repetition_type: "REPEATED", num_children: 1 },
        ...schemaElements("element", t.item),
      ];
    case "struct":
      return [
        { name, repetition_type: "OPTIONAL", num_children: t.fields.size },
        ...[...t.fields].flatMap(([k, f]) => schemaElements(k, f)),
      ];
    default:
      return [string];
  }
}

/** Every row of the output, in order: JSON Lines line by line, parquet a row group at a time (bounded memory). */
async function* readRows(dataFile: string): AsyncGenerator<Record<string, unknown>> {
  if (dataFile.endsWith(".parquet")) {
    const file = await asyncBufferFromFile(dataFile);
    const metadata = await parquetMetadataAsync(file);
    let rowStart = 0;
    for (const group of metadata.row_groups) {
      const rowEnd = rowStart + Number(group.num_rows);
      const rows = await parquetReadObjects({ file, metadata, rowStart, rowEnd });
      for (const row of rows) yield row;
      rowStart = rowEnd;
    }
    return;
  }
  const lines = createInterface({ input: createReadStream(dataFile, { encoding: "utf8" }), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n += 1;
    if (line.trim() === "") continue;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch (e) {
      throw new Error(`${path.basename(dataFile)}:${n}: not valid JSON (${(e as Error).message})`, { cause: e });
    }
    yield row;
  }
}

/** Column types over every row (first pass of the Parquet writer: a shard's schema must be known before its first row). */
async function inferColumns(dataFile: string, imageRoot: string | undefined): Promise<Map<string, ColumnType>> {
  const columns = new Map<string, ColumnType>();
  for await (const row of readRows(dataFile)) {
    for (const [k, v] of Object.entries(row)) columns.set(k, mergeTypes(columns.get(k) ?? NULL, typeOf(v, imageRoot)));
  }
  return new Map([...columns].map(([k, t]) => [k, settle(t)]));
}

type Embedder = (name: string) => Promise<Uint8Array>;

/**
 * A row value shaped for the column type: images become `{bytes, path}` with the screenshot's bytes
 * and its file name (as `datasets`' `embed_storage` keeps the base name), JSON columns their text.
 * Returns the value and the bytes it adds (for the shard and row-group limits).
 */
async function shape(value: unknown, t: ColumnType, embed: Embedder, imageRoot: string | undefined): Promise<[unknown, number]> {
  if (value === null || value === undefined) return [null, 0];
  switch (t.kind) {
    case "image": {
      const name = imageNameOf(String(value), imageRoot);
      if (!name) return [null, 0];
      const bytes = await embed(name);
      return [{ bytes, path: name }, bytes.byteLength + name.length];
    }
    case "int":
      return [typeof value === "bigint" ? value : BigInt(value as number), 8];
    case "float":
      return [Number(value), 8];
    case "bool":
      return [Boolean(value), 1];
    case "list": {
      const out: unknown[] = [];
      let size = 4;
      for (const v of value as unknown[]) {
        const [s, n] = await shape(v, t.item, embed, imageRoot);
        out.push(s);
        size += n;
      }
      return [out, size];
    }
    case "struct": {
      const out: Record<string, unknown> = {};
      let size = 0;
      for (const [k, f] of t.fields) {
        const [s, n] = await shape((value as Record<string, unknown>)[k], f, embed, imageRoot);
        out[k] = s;
        size += n;
      }
      return [out, size];
    }
    case "json": {
      const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
      return [text, text.length];
    }
    default: {
      const text = String(value);
      return [text, Buffer.byteLength(text)];
    }
  }
}

/** `train-00003-of-00012.<ext>`, as `datasets` names the shards it pushes. */
export function shardName(index: number, count: number, ext: string): string {
  const pad = (n: number) => String(n).padStart(5, "0");
  return `${SHARD_SPLIT}-${pad(index)}-of-${pad(count)}.${ext}`;
}

/** Rename the shards written as `<i>.<ext>.incomplete` to their final names, now that their count is known. */
async function nameShards(dir: string, count: number, ext: string): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = shardName(i, count, ext);
    await rename(path.join(dir, `${i}.${ext}.incomplete`), path.join(dir, name));
    files.push(`${SHARDS_DIR}/${name}`);
  }
  return files;
}

/** Remove shards of an earlier run (a different count would leave stale `-of-` files beside the new ones). */
async function freshShardDir(outDir: string, ext: string): Promise<string> {
  const dir = path.join(outDir, SHARDS_DIR);
  await mkdir(dir, { recursive: true });
  for (const f of await readdir(dir)) {
    if (f.startsWith(`${SHARD_SPLIT}-`) && (f.endsWith(`.${ext}`) || f.endsWith(".incomplete"))) await rm(path.join(dir, f));
    else if (/^\d+\.\w+\.incomplete$/.test(f)) await rm(path.join(dir, f));
  }
  return dir;
}

/**
 * Write the rows of `opts.dataFile` as shards under `<outDir>/data/`: Parquet with the screenshots
 * embedded as `datasets` Image values (`{bytes, path}`) and the features in the `huggingface` schema
 * metadata, or WebDataset tars (`<key>.json` plus `<key>.<i>.png` per row). Memory holds at most one
 * row group (Parquet) or one row (tar), whatever the number of rows. Sizes are in bytes.
 */
export async function writeShards(opts: ShardOptions): Promise<ShardSummary> {
  return opts.format === "parquet" ? writeParquetShards(opts) : writeTarShards(opts);
}

/** Bytes of recently embedded screenshots kept (rows of one trajectory name the same screens again: history, pairs). */
const IMAGE_CACHE_BYTES = 32 * 1024 * 1024;

/** Reads screenshots from the output's images/, keeping the most recent ones up to IMAGE_CACHE_BYTES. */
function imageReader(outDir: string): Embedder {
  const dir = path.join(outDir, IMAGES_DIR);
  const cache = new Map<string, Uint8Array>();
  let cached = 0;
  return async (name) => {
    const hit = cache.get(name);
    if (hit) {
      cache.delete(name);
      cache.set(name, hit);
      return hit;
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(path.join(dir, name)));
    } catch (e) {
      throw new Error(`${IMAGES_DIR}/${name}: a row names this screenshot but the output folder does not hold it`, { cause: e });
    }
    cache.set(name, bytes);
    cached += bytes.byteLength;
    for (const [k, v] of cache) {
      if (cached <= IMAGE_CACHE_BYTES) break;
      cache.delete(k);
      cached -= v.byteLength;
    }
    return bytes;
  };
}

async function writeParquetShards(opts: ShardOptions): Promise<ShardSummary> {
  const maxShard = opts.maxShardBytes ?? DEFAULT_PARQUET_SHARD_BYTES;
  const maxGroup = Math.min(opts.maxRowGroupBytes ?? DEFAULT_ROW_GROUP_BYTES, maxShard);
  const columns = await inferColumns(opts.dataFile, opts.imageRoot);
  const names = [...columns.keys()];
  const features: HfFeatures = Object.fromEntries([...columns].map(([k, t]) => [k, hfFeature(t)]));
  const schema: SchemaElement[] = [
    { name: "schema", num_children: names.length },
    ...[...columns].flatMap(([k, t]) => schemaElements(k, t)),
  ];
  // The key `datasets` reads its features from (ArrowWriter._build_metadata: {"info": {"features": …}}).
  const kvMetadata = [{ key: "huggingface", value: JSON.stringify({ info: { features } }) }];
  const dir = await freshShardDir(opts.outDir, "parquet");
  const embed = imageReader(opts.outDir);

  let shards = 0;
  let writer: ParquetWriter | undefined;
  let shardBytes = 0;
  let group: Record<string, unknown>[] = [];
  let groupBytes = 0;
  let rows = 0;
  let images = 0;
  let rowGroups = 0;
  const countImages = (t: ColumnType, v: unknown): number =>
    v === null || v === undefined
      ? 0
      : t.kind === "image"
        ? 1
        : t.kind === "list"
          ? (v as unknown[]).reduce<number>((n, x) => n + countImages(t.item, x), 0)
          : t.kind === "struct"
            ? [...t.fields].reduce((n, [k, f]) => n + countImages(f, (v as Record<string, unknown>)[k]), 0)
            : 0;

  const flushGroup = async () => {
    if (group.length === 0 || !writer) return;
    const columnData: ColumnSource[] = names.map((name) => ({ name, data: group.map((r) => r[name] ?? null) }));
    await writer.write({ columnData, rowGroupSize: group.length });
    rowGroups += 1;
    group = [];
    groupBytes = 0;
  };
  const finishShard = async () => {
    await flushGroup();
    await writer?.finish();
    writer = undefined;
  };

  for await (const raw of readRows(opts.dataFile)) {
    const row: Record<string, unknown> = {};
    let size = 0;
    for (const [k, t] of columns) {
      const [v, n] = await shape(raw[k], t, embed, opts.imageRoot);
      row[k] = v;
      size += n;
      images += countImages(t, v);
    }
    // A new shard when this row would take the current one past its limit (a shard always holds one row).
    if (writer && shardBytes + size > maxShard) await finishShard();
    if (!writer) {
      writer = new ParquetWriter({
        writer: fileWriter(path.join(dir, `${shards}.parquet.incomplete`)),
        schema,
        kvMetadata,
        createdBy: "trajectory-studio bridge",
      });
      shards += 1;
      shardBytes = 0;
    }
    if (group.length > 0 && groupBytes + size > maxGroup) await flushGroup();
    group.push(row);
    groupBytes += size;
    shardBytes += size;
    rows += 1;
  }
  // No rows: no shard (a Parquet file needs at least one column, and the rows' columns are unknown).
  await finishShard();
  const files = await nameShards(dir, shards, "parquet");
  return { format: "parquet", files, rows, images, bytes: await sizeOf(opts.outDir, files), rowGroups, features };
}

async function sizeOf(outDir: string, files: string[]): Promise<number> {
  let total = 0;
  for (const f of files) total += (await stat(path.join(outDir, f))).size;
  return total;
}

/** WebDataset's key of a row: no dot (the first dot of a member name starts its extension), the same for every member of the row. */
export function webdatasetKey(index: number): string {
  return String(index).padStart(9, "0");
}

/**
 * The row as its `.json` member holds it: each screenshot path replaced by the extension of the member
 * holding its bytes (`0.png`, `1.png`, …, in the order the row names them), so a reader finds the image
 * as `sample[<that extension>]`.
 */
function tarRow(value: unknown, imageRoot: string | undefined, names: string[]): unknown {
  if (typeof value === "string") {
    const name = imageNameOf(value, imageRoot);
    if (!name) return value;
    names.push(name);
    return `${names.length - 1}.png`;
  }
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map((v) => tarRow(v, imageRoot, names));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tarRow(v, imageRoot, names)]));
  return value;
}

const TAR_BLOCK = 512;
const tarEntryBytes = (size: number) => TAR_BLOCK + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;

/**
 * A tar file written entry by entry. tar-stream makes the headers and padding; its output is gathered
 * here and written in 4 MB batches (one write per entry was a thread-pool round trip each: 40k entries
 * took 20 s on a loaded machine). Memory holds at most a batch plus the entries not yet emitted.
 */
class TarShard {
  private readonly pack = tarPack();
  private chunks: Buffer[] = [];
  private pending = 0;
  private entered = 0;
  private emitted = 0;
  private readonly ended: Promise<unknown>;
  private constructor(private readonly handle: FileHandle) {
    this.pack.on("data", (data: unknown) => {
      const c = data as Buffer;
      this.chunks.push(c);
      this.pending += c.length;
      this.emitted += c.length;
    });
    this.ended = once(this.pack, "end");
  }
  static async create(file: string): Promise<TarShard> {
    return new TarShard(await open(file, "w"));
  }
  /** Queue one member; call settle() after each row. */
  entry(name: string, data: Uint8Array): void {
    this.pack.entry(
      { name, size: data.byteLength, mtime: new Date(0), mode: 0o644 },
      Buffer.from(data.buffer, data.byteOffset, data.byteLength),
    );
    this.entered += tarEntryBytes(data.byteLength);
  }
  /** Let the packer catch up (bounded lag), and write a full batch. */
  async settle(force = false): Promise<void> {
    while (this.entered - this.emitted > TAR_BATCH) await new Promise((r) => setImmediate(r));
    if (this.pending >= TAR_BATCH || (force && this.pending > 0)) {
      const batch = Buffer.concat(this.chunks);
      this.chunks = [];
      this.pending = 0;
      await this.handle.write(batch);
    }
  }
  async close(): Promise<void> {
    this.pack.finalize();
    await this.ended;
    await this.settle(true);
    await this.handle.close();
  }
}
const TAR_BATCH = 4 * 1024 * 1024;

async function writeTarShards(opts: ShardOptions): Promise<ShardSummary> {
  const maxShard = opts.maxShardBytes ?? DEFAULT_TAR_SHARD_BYTES;
  const dir = await freshShardDir(opts.outDir, "tar");
  const embed = imageReader(opts.outDir);
  let shards = 0;
  let tar: TarShard | undefined;
  let shardBytes = 0;
  let rows = 0;
  let images = 0;
  for await (const raw of readRows(opts.dataFile)) {
    const names: string[] = [];
    const json = Buffer.from(JSON.stringify(tarRow(raw, opts.imageRoot, names)), "utf8");
    const members: [string, Uint8Array][] = [];
    const key = webdatasetKey(rows);
    members.push([`${key}.json`, json]);
    for (const [i, name] of names.entries()) members.push([`${key}.${i}.png`, await embed(name)]);
    const size = members.reduce((n, [, d]) => n + tarEntryBytes(d.byteLength), 0);
    // Members of one row stay in one tar: WebDataset groups a sample from adjacent members.
    if (tar && shardBytes + size > maxShard) {
      await tar.close();
      tar = undefined;
    }
    if (!tar) {
      tar = await TarShard.create(path.join(dir, `${shards}.tar.incomplete`));
      shards += 1;
      shardBytes = 2 * TAR_BLOCK; // the end-of-archive blocks
    }
    for (const [name, data] of members) tar.entry(name, data);
    await tar.settle();
    shardBytes += size;
    rows += 1;
    images += names.length;
  }
  await tar?.close();
  const files = await nameShards(dir, shards, "tar");
  return { format: "webdataset", files, rows, images, bytes: await sizeOf(opts.outDir, files) };
}
