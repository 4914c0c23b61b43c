// An import's screenshot files are read, hashed and (on the local store) written into the store on
// threads of their own (three), with plain synchronous file calls, while the import's own thread parses, checks
// and stages the trajectories: on a small machine the two halves of an import then run side by side,
// and the bytes never cross into the import's JS heap. (Through fs's promise API every file cost ten
// thread-pool round trips, each a few microseconds of the import's own thread: a third of its time.)
//
// Each thread is a `worker_threads` Worker from the source below, which uses only Node's built-in
// modules (no bundler step needed: the same code runs under tsx, vitest and the Next.js server).
// What it does per file is what inspectImageBytes + storeScreenshotBytes do (lib/server/import-image.ts,
// lib/server/screenshot-store.ts, lib/server/object-store/local.ts): read it once; sha256 those bytes;
// take the size from a PNG's IHDR chunk; store a PNG as <store>/<sha[0:2]>/<sha>.png unless already
// there, through a temporary file renamed into place. Anything else (not a PNG, or a store that is not
// a local folder) comes back as bytes for the import's thread to finish the usual way.
import { Worker } from "node:worker_threads";

/** One file as the reader thread left it. */
export type RawImage =
  /** The file could not be read. */
  | { missing: true }
  /** A PNG measured, and stored when a store was given. */
  | { sha256: string; width: number; height: number; bytes: number; stored: boolean }
  /** Not measured (not a PNG) or not stored where bytes were asked for: the bytes, for the caller. */
  | { sha256: string; data: Buffer; png: { width: number; height: number } | null };

export type ReadRequest = {
  files: string[];
  /** Folder of the local store's screenshots (<data>/screenshots) to write PNGs into; null writes nothing. */
  storeDir: string | null;
  /** Send back the bytes of a PNG that was not stored (to be stored elsewhere by the caller). */
  wantBytes: boolean;
};

const SOURCE = String.raw`
const { parentPort } = require("node:worker_threads");
const fs = require("node:fs");
const path = require("node:path");
const { createHash, randomBytes } = require("node:crypto");
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const made = new Set();

function pngSize(bytes) {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString("latin1", 12, 16) !== "IHDR") return null;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  return width > 0 && height > 0 ? { width, height } : null;
}

function put(storeDir, sha256, bytes) {
  const dir = path.join(storeDir, sha256.slice(0, 2));
  const target = path.join(dir, sha256 + ".png");
  if (fs.existsSync(target)) return;
  if (!made.has(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  const tmp = target + "." + randomBytes(6).toString("hex") + ".tmp";
  try {
    fs.writeFileSync(tmp, bytes);
    fs.renameSync(tmp, target);
  } catch (e) {
    try { fs.unlinkSync(tmp); } catch {}
    // The shard folder removed under us: make it again, once.
    if (e.code === "ENOENT" && made.delete(dir)) return put(storeDir, sha256, bytes);
    throw e;
  }
}

parentPort.on("message", ({ id, files, storeDir, wantBytes }) => {
  const out = [];
  try {
    for (const file of files) {
      let bytes;
      try {
        bytes = fs.readFileSync(file);
      } catch {
        out.push({ missing: true });
        continue;
      }
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      const png = pngSize(bytes);
      if (png && storeDir) {
        put(storeDir, sha256, bytes);
        out.push({ sha256, width: png.width, height: png.height, bytes: bytes.length, stored: true });
      } else if (png && !wantBytes) out.push({ sha256, width: png.width, height: png.height, bytes: bytes.length, stored: false });
      else out.push({ sha256, data: bytes, png });
    }
    parentPort.postMessage({ id, out });
  } catch (e) {
    parentPort.postMessage({ id, error: { message: String(e && e.message), code: e && e.code } });
  }
});
`;

/**
 * Reader threads per import. Paired runs at 26,777 steps on 2 busy cores: two took 0.86x the wall time
 * of one, three 0.74x that of two, four the same as three (0.99x); the CPU time stays the same.
 */
const READER_THREADS = 3;

type Reply = {
  id: number;
  out?: (RawImage | { sha256: string; data: Uint8Array; png: { width: number; height: number } | null })[];
  error?: { message: string; code?: string };
};

/**
 * The reader threads of one import (`threads` of them, each request to the next in turn); close() ends
 * them. One thread is busy in the kernel (reads, writes, renames) about as long as the import's own
 * thread is busy in JS; more let the file work go on while one waits on the disk.
 */
export class ScreenshotReader {
  readonly #workers: Worker[];
  readonly #waiting = new Map<number, { resolve: (r: RawImage[]) => void; reject: (e: Error) => void }>();
  #next = 0;
  #failure: Error | null = null;

  constructor(threads = READER_THREADS) {
    const fail = (e: Error) => {
      this.#failure ??= e;
      for (const w of this.#waiting.values()) w.reject(e);
      this.#waiting.clear();
    };
    this.#workers = Array.from({ length: threads }, () => {
      const worker = new Worker(SOURCE, { eval: true });
      worker.on("message", (m: Reply) => {
        const w = this.#waiting.get(m.id);
        if (!w) return;
        this.#waiting.delete(m.id);
        if (m.error) w.reject(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
        else
          w.resolve(
            m.out!.map((r) =>
              // Buffers arrive as plain Uint8Arrays: the same memory, seen as a Buffer again.
              "data" in r ? { ...r, data: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength) } : r,
            ),
          );
      });
      worker.on("error", fail);
      worker.on("exit", (code) => fail(new Error(`the screenshot reader stopped (exit code ${code})`)));
      return worker;
    });
  }

  /** Read (and maybe store) these files, in one message to a reader thread. */
  read(request: ReadRequest): Promise<RawImage[]> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#workers[id % this.#workers.length]!.postMessage({ id, ...request });
    });
  }

  async close(): Promise<void> {
    this.#failure ??= new Error("the screenshot reader was closed");
    await Promise.all(this.#workers.map((w) => w.terminate()));
  }
}
