// Near-duplicate trajectories: the same task run again over (almost) the same screens. Pure: the perceptual
// hashes come in as 64-bit integers (lib/bridge/dedupe.ts computes them from the screenshots with sharp), so
// the list, assignment and releases can group with the same rule later.

/** Default largest Hamming distance (bits of 64) between two screenshots' dHashes that still counts as the same screen. */
export const DEFAULT_MAX_SCREEN_DISTANCE = 8;

/** What two trajectories are compared on. `screens` holds one 64-bit dHash per step, in step order. */
export type TrajectorySignature = {
  /** 0-based position in the export's trajectories.jsonl (non-blank lines). */
  ordinal: number;
  /** 1-based line in trajectories.jsonl. */
  line: number;
  /** The trajectory's id, or `#<ordinal>`. */
  key: string;
  /** normaliseInstruction of the instruction. */
  instruction: string;
  /** actionToken per step. */
  actions: string[];
  screens: bigint[];
  /** For the keeper rule: the trajectory's status, steps a person wrote, steps with a verdict. */
  status: string | null;
  stepsByPeople: number;
  reviewedSteps: number;
};

/**
 * The instruction as compared: Unicode NFKC (full-width letters and digits become ASCII), lower case,
 * every run of white space one space, trimmed. "Open  Settings " and "open settings" are the same.
 */
export function normaliseInstruction(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim();
}

/**
 * One step's action as compared: its type and its text arguments (app name, typed text, button, answer),
 * normalised like the instruction. Points are left out: a re-run taps the same element a few pixels away,
 * and the screens already say where it was.
 */
export function actionToken(call: { action: string; text?: unknown; button?: unknown; status?: unknown }): string {
  const parts = [call.action];
  for (const v of [call.text, call.button, call.status]) if (typeof v === "string") parts.push(normaliseInstruction(v));
  return parts.join("\u0001");
}

/** The greyscale raster a dHash is read from: 9 columns by 8 rows (aspect ignored), one byte per pixel. */
export const DHASH_GRID = { width: 9, height: 8 } as const;

/** sharp's resize options for the raster: the whole image (aspect ignored) to DHASH_GRID with the lanczos3 kernel. */
export const DHASH_RESIZE = { ...DHASH_GRID, fit: "fill", kernel: "lanczos3" } as const;

/**
 * The sharp calls a dHash is made with, as a type: lib/domain loads no image library, so the caller passes the
 * image it opened (`sharp(input, options)`, with its own limits and failure rule).
 */
export type DHashImage = {
  resize(options: typeof DHASH_RESIZE): DHashImage;
  toColourspace(colourspace: "b-w"): DHashImage;
  raw(): DHashImage;
  toBuffer(): Promise<Uint8Array>;
};

/**
 * The one definition of a screenshot's 64-bit dHash, for the import (from the decode that proves the file),
 * the server's lazy pass over older rows and `bridge dedupe`: the image shrunk whole to DHASH_GRID (lanczos3)
 * in its own colours, then made grey (sharp's b-w), then dHashOfGrid. Shrinking before the grey conversion,
 * not after, is for cost: sharp's greyscale() converts every pixel through linear light before the shrink
 * (an import hashing that way used 3.9-4.8 times the CPU of one that only proved the decode; this way,
 * 1.6-1.7 times: docs/LOAD.md), while converting the 72 shrunk pixels costs nothing. Reading the whole
 * image, the shrink also proves that every row decodes.
 */
export async function dHashOf(image: DHashImage): Promise<bigint> {
  const px = await image.resize(DHASH_RESIZE).toColourspace("b-w").raw().toBuffer();
  if (px.length !== DHASH_GRID.width * DHASH_GRID.height) throw new Error(`a dHash raster of ${px.length} bytes, not 72`);
  return dHashOfGrid(px);
}

/**
 * The 64-bit difference hash of a 9x8 greyscale raster (row-major, DHASH_GRID): one bit per horizontally
 * adjacent pair, set when the left pixel is brighter; bit 0 is the top-left pair. The bridge (from an
 * export's files) and the server (at import) both shrink the screenshot with sharp and call this, so a
 * hash stored at import equals the one `bridge dedupe` computes from the same pixels.
 */
export function dHashOfGrid(px: ArrayLike<number>): bigint {
  let hash = 0n;
  let bit = 0n;
  for (let y = 0; y < DHASH_GRID.height; y++) {
    for (let x = 0; x < DHASH_GRID.width - 1; x++) {
      if (px[y * DHASH_GRID.width + x]! > px[y * DHASH_GRID.width + x + 1]!) hash |= 1n << bit;
      bit += 1n;
    }
  }
  return hash;
}

/** A hash as 16 hex digits (how the studio stores it and the groups file shows it). */
export const hashHex = (h: bigint) => BigInt.asUintN(64, h).toString(16).padStart(16, "0");

/** Number of bits that differ between two 64-bit hashes. */
export function hammingDistance(a: bigint, b: bigint): number {
  let x = BigInt.asUintN(64, a ^ b);
  let n = 0;
  while (x) {
    x &= x - 1n;
    n += 1;
  }
  return n;
}

/**
 * The bands the first screen's 64 bits are cut into: `maxDistance + 1` contiguous bands, so two hashes
 * within `maxDistance` bits agree on at least one whole band (pigeonhole): banding never misses a pair the
 * verification would accept.
 */
export function bandsOf(hash: bigint, maxDistance: number): string[] {
  const count = Math.min(64, maxDistance + 1);
  const out: string[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const width = Math.floor(64 / count) + (i < 64 % count ? 1 : 0);
    const bits = (hash >> BigInt(offset)) & ((1n << BigInt(width)) - 1n);
    out.push(`${i}:${bits.toString(36)}`);
    offset += width;
  }
  return out;
}

/** Two trajectories are near-duplicates: same normalised instruction, same action sequence, every screen within `maxDistance` bits. */
export function isNearDuplicate(a: TrajectorySignature, b: TrajectorySignature, maxDistance: number): boolean {
  if (a.instruction !== b.instruction || a.actions.length !== b.actions.length || a.screens.length !== b.screens.length) return false;
  for (let i = 0; i < a.actions.length; i++) if (a.actions[i] !== b.actions[i]) return false;
  for (let i = 0; i < a.screens.length; i++) if (hammingDistance(a.screens[i]!, b.screens[i]!) > maxDistance) return false;
  return true;
}

const STATUS_RANK: Record<string, number> = { approved: 3, submitted: 2, in_progress: 1 };

/**
 * The keeper of a group, the one trajectory that stays: the furthest reviewed (approved, then submitted,
 * then in progress), then the most steps a person wrote, then the most steps with a verdict, then the
 * earliest in the export (smallest ordinal), so the choice never depends on the order pairs were found.
 */
export function compareKeepers(a: TrajectorySignature, b: TrajectorySignature): number {
  return (
    (STATUS_RANK[b.status ?? ""] ?? 0) - (STATUS_RANK[a.status ?? ""] ?? 0) ||
    b.stepsByPeople - a.stepsByPeople ||
    b.reviewedSteps - a.reviewedSteps ||
    a.ordinal - b.ordinal
  );
}

export type DuplicateGroup = {
  keeper: TrajectorySignature;
  /** The others, in export order. */
  duplicates: TrajectorySignature[];
};

export type GroupingStats = { trajectories: number; candidatePairs: number; verifiedPairs: number };

/** Set bits of a 32-bit integer. */
function popcount32(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** `width` (<= 32) bits of the 64-bit value (lo, hi) from bit `offset`, as a number. */
function bitsAt(lo: number, hi: number, offset: number, width: number): number {
  let v = 0;
  for (let b = 0; b < width; b++) {
    const at = offset + b;
    const bit = at < 32 ? (lo >>> at) & 1 : (hi >>> (at - 32)) & 1;
    v += bit * 2 ** b;
  }
  return v;
}

/**
 * Group near-duplicate trajectories without comparing all pairs. Candidates: trajectories that share a
 * bucket keyed by (normalised instruction, action sequence, one band of the first screen's dHash; the
 * first screen is cut into `maxDistance + 1` bands, bandsOf) — a pair within `maxDistance` on that screen
 * always shares one. Each candidate pair is verified with the isNearDuplicate rule, and verified pairs are
 * joined transitively (union-find). Groups of two or more, each with its keeper (compareKeepers), in the
 * order of their first trajectory. Hashes are handled as 32-bit halves: 100k trajectories take seconds.
 */
export function groupNearDuplicates(
  signatures: readonly TrajectorySignature[],
  maxDistance = DEFAULT_MAX_SCREEN_DISTANCE,
): { groups: DuplicateGroup[]; stats: GroupingStats } {
  const n = signatures.length;
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  // Screens as (lo, hi) 32-bit halves, and one small integer per (instruction, actions) prefix.
  const halves: Uint32Array[] = [];
  const prefixIds = new Map<string, number>();
  const prefixOf = new Int32Array(n);
  for (const [i, s] of signatures.entries()) {
    const h = new Uint32Array(s.screens.length * 2);
    s.screens.forEach((x, k) => {
      const u = BigInt.asUintN(64, x);
      h[2 * k] = Number(u & 0xffffffffn);
      h[2 * k + 1] = Number(u >> 32n);
    });
    halves.push(h);
    const prefix = `${s.instruction}\u0002${s.actions.join("\u0003")}`;
    let id = prefixIds.get(prefix);
    if (id === undefined) prefixIds.set(prefix, (id = prefixIds.size));
    prefixOf[i] = id;
  }
  const verify = (i: number, j: number): boolean => {
    if (prefixOf[i] !== prefixOf[j]) return false;
    const a = halves[i]!;
    const b = halves[j]!;
    if (a.length !== b.length) return false;
    for (let k = 0; k < a.length; k += 2) {
      if (popcount32(a[k]! ^ b[k]!) + popcount32(a[k + 1]! ^ b[k + 1]!) > maxDistance) return false;
    }
    return true;
  };
  const bandCount = Math.min(64, maxDistance + 1);
  const widths = Array.from({ length: bandCount }, (_, b) => Math.floor(64 / bandCount) + (b < 64 % bandCount ? 1 : 0));
  // One map per (prefix, band): band values (<= 32 bits once maxDistance >= 1) to the trajectories holding them.
  const buckets = new Map<number, Map<number | string, number[]>>();
  const lastSeenBy = new Int32Array(n).fill(-1);
  let candidatePairs = 0;
  let verifiedPairs = 0;
  for (let i = 0; i < n; i++) {
    const h = halves[i]!;
    if (h.length === 0) continue;
    let offset = 0;
    for (let b = 0; b < bandCount; b++) {
      const width = widths[b]!;
      const value: number | string = width <= 32 ? bitsAt(h[0]!, h[1]!, offset, width) : `${h[0]}:${h[1]}`; // maxDistance 0: the whole hash
      offset += width;
      const table = prefixOf[i]! * 64 + b;
      let byValue = buckets.get(table);
      if (!byValue) buckets.set(table, (byValue = new Map()));
      let bucket = byValue.get(value);
      if (!bucket) byValue.set(value, (bucket = []));
      for (const j of bucket) {
        if (lastSeenBy[j] === i) continue;
        lastSeenBy[j] = i;
        candidatePairs += 1;
        const ri = find(i);
        const rj = find(j);
        if (ri === rj) continue;
        if (verify(i, j)) {
          verifiedPairs += 1;
          parent[ri] = rj;
        }
      }
      bucket.push(i);
    }
  }
  const members = new Map<number, TrajectorySignature[]>();
  for (const [i, s] of signatures.entries()) {
    const root = find(i);
    if (!members.has(root)) members.set(root, []);
    members.get(root)!.push(s);
  }
  const groups: DuplicateGroup[] = [];
  for (const list of members.values()) {
    if (list.length < 2) continue;
    const keeper = [...list].sort(compareKeepers)[0]!;
    groups.push({ keeper, duplicates: list.filter((s) => s !== keeper) });
  }
  const first = (g: DuplicateGroup) => Math.min(g.keeper.ordinal, ...g.duplicates.map((d) => d.ordinal));
  groups.sort((a, b) => first(a) - first(b));
  return { groups, stats: { trajectories: n, candidatePairs, verifiedPairs } };
}
