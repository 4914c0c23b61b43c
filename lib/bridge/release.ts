// What `--shards` adds to a row command: the hub-ready shards, then the dataset card beside them.
import path from "node:path";
import { writeCard } from "./card";
import type { BridgeIo } from "./output";
import { writeShards, type ShardOptions, type ShardSummary } from "./shards";

export type ReleaseOptions = ShardOptions & {
  frame: { maxPixels: number; minPixels: number };
  command: string;
  target?: string;
  /** The data's licence (an SPDX id or URL); the CLI refuses --shards without one. */
  license: string;
  name?: string;
};

/**
 * Write `<outDir>/data/train-*.{parquet,tar}` from the rows the command wrote, then README.md and
 * croissant.json from the export's records. Returns the shard summary with the card's files.
 */
export async function writeShardsAndCard(
  exportDir: string,
  opts: ReleaseOptions,
  io: BridgeIo,
): Promise<ShardSummary & { card: string[] }> {
  io.stderr.write(`bridge: writing ${opts.format} shards from ${path.basename(opts.dataFile)}\n`);
  const shards = await writeShards(opts);
  if (shards.rows === 0) io.stderr.write(`bridge: ${path.basename(opts.dataFile)} has no rows: no shards written\n`);
  const card = await writeCard(exportDir, opts.outDir, shards, opts.frame, {
    name: opts.name ?? path.basename(opts.outDir),
    license: opts.license,
    command: opts.command,
    target: opts.target,
  });
  io.stderr.write(
    `bridge: ${shards.files.length} shard(s), ${shards.rows} rows, ${shards.images} images, ${shards.bytes} bytes; card: README.md, croissant.json\n`,
  );
  const { features: _features, ...rest } = shards;
  return { ...rest, card: card.map((f) => path.relative(opts.outDir, f)) };
}
