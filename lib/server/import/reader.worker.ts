// The import's screenshot reader thread (started by lib/server/import/reader.ts through startWorker): reads,
// hashes, decodes and stores one request's files and answers their RawImages. A worker entry of its own, so it
// imports only node's modules, and the pure PNG header and dHash rules (lib/domain/png.ts, lib/domain/near-duplicates.ts, by relative paths that
// every bundler of this file resolves), and loads sharp from where the import's thread found it; see
// lib/server/jobs/worker-file.ts for how each way the studio runs finds this file.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import type sharpModule from "sharp";
import { dHashOf, hashHex } from "../../domain/near-duplicates";
import { pngSize } from "../../domain/png";
import type { Proof, ReaderLimits, ReadReply, ReadRequest } from "./reader";

type Sharp = typeof sharpModule;
type Png = { width: number; height: number };
type Setup = { limits: ReaderLimits; requireFrom: string[] };

const { limits, requireFrom } = workerData as Setup;
const port = parentPort!;
const made = new Set<string>();

/** Store the bytes as <storeDir>/<sha[0:2]>/<sha>.png unless there, through a temporary file renamed into place. */
function put(storeDir: string, sha256: string, bytes: Buffer): void {
  const dir = path.join(storeDir, sha256.slice(0, 2));
  const target = path.join(dir, `${sha256}.png`);
  if (fs.existsSync(target)) return;
  if (!made.has(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  const tmp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    fs.writeFileSync(tmp, bytes);
    fs.renameSync(tmp, target);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // never written
    }
    // The shard folder removed under us: make it again, once.
    if ((e as NodeJS.ErrnoException).code === "ENOENT" && made.delete(dir)) return put(storeDir, sha256, bytes);
    throw e;
  }
}

// sharp, loaded on this thread's first PNG from where the import's thread found it (a worker bundled apart
// from the studio would otherwise resolve from the working folder); null when it cannot be loaded: PNGs
// then come back undecoded.
let sharp: Sharp | null | undefined;
function loadSharp(): Sharp | null {
  if (sharp !== undefined) return sharp;
  sharp = null;
  for (const from of requireFrom) {
    try {
      sharp = createRequire(from)("sharp") as Sharp;
      break;
    } catch {
      // try the next place
    }
  }
  // Every image an import decodes is new and decoded once: libvips' operation cache (process-wide) would
  // only hash and hold each one, about 0.4 ms of CPU per screenshot.
  if (sharp) sharp.cache(false);
  return sharp;
}

// Decodes of one sha256 on this thread: the same bytes under two names are decoded once.
const proofs = new Map<string, Promise<Proof>>();

/** Whether the reader decodes a PNG of this declared size (a bigger one is refused on the import's thread). */
const fits = (png: Png) => png.width <= limits.side && png.height <= limits.side && png.width * png.height <= limits.pixels;

/**
 * { decoded: true, dhash }, { undecodable: words } or {} (not decoded here), for PNG bytes of this size. The
 * one decode both proves every row and makes the near-duplicate hash (dHashOf: shrinking to the dHash grid
 * reads every row), as proveDecodes does on the import's thread (import-image.ts).
 */
function prove(sha256: string, bytes: Buffer, png: Png): Promise<Proof> {
  const decoder = fits(png) ? loadSharp() : null;
  if (!decoder) return Promise.resolve({});
  let p = proofs.get(sha256);
  if (!p) {
    p = dHashOf(decoder(bytes, { limitInputPixels: limits.pixels, failOn: "error" })).then(
      (hash): Proof => ({ decoded: true, dhash: hashHex(hash) }),
      (e: unknown): Proof => ({ undecodable: String((e as Error | undefined)?.message ?? e).trim() }),
    );
    proofs.set(sha256, p);
  }
  return p;
}

/** The bytes' memory handed over, not copied, when they own all of it (readFileSync's do). */
const own = (b: Buffer): ArrayBuffer[] =>
  b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer ? [b.buffer] : [];

type Work = { missing: true } | { bytes: Buffer; sha256: string; png: Png | null; proof: Promise<Proof> };

// Each request is answered (its work, or the error that stopped it) by answer(), which never rejects.
port.on("message", (request: ReadRequest & { id: number }) => void answer(request));

async function answer({ id, files, storeDir, wantBytes }: ReadRequest & { id: number }): Promise<void> {
  try {
    // Read and hash every file first, starting each PNG's decode as it comes: the decodes run on libuv's
    // threads while this one reads the next files.
    const work = files.map((file): Work => {
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(file);
      } catch {
        return { missing: true };
      }
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      const png = pngSize(bytes);
      return { bytes, sha256, png, proof: png ? prove(sha256, bytes, png) : Promise.resolve({}) };
    });
    const out: NonNullable<ReadReply["out"]> = [];
    const transfer: ArrayBuffer[] = [];
    for (const w of work) {
      if ("missing" in w) {
        out.push(w);
        continue;
      }
      const { bytes, sha256, png } = w;
      const proof = await w.proof;
      // A PNG over the size limits (refused by the import's thread) or one that does not decode is not stored.
      if (png && storeDir && fits(png) && !proof.undecodable) {
        put(storeDir, sha256, bytes);
        out.push({ sha256, width: png.width, height: png.height, bytes: bytes.length, stored: true, ...proof });
      } else if (png && (!wantBytes || storeDir || !fits(png) || proof.undecodable)) {
        out.push({ sha256, width: png.width, height: png.height, bytes: bytes.length, stored: false, ...proof });
      } else {
        out.push({ sha256, data: bytes, png, ...proof });
        transfer.push(...own(bytes));
      }
    }
    port.postMessage({ id, out } satisfies ReadReply, transfer);
  } catch (e) {
    const err = e as NodeJS.ErrnoException | undefined;
    port.postMessage({ id, error: { message: String(err?.message), ...(err?.code ? { code: err.code } : {}) } } satisfies ReadReply);
  }
}
