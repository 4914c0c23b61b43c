// An import's screenshot files are read, hashed, decoded and (on the local store) written into the store on
// threads of their own (three), with plain synchronous file calls, while the import's own thread parses, checks
// and stages the trajectories: on a small machine the two halves of an import then run side by side,
// and the bytes never cross into the import's JS heap. (Through fs's promise API every file cost ten
// thread-pool round trips, each a few microseconds of the import's own thread: a third of its time.)
//
// Each thread runs import-reader.worker.ts, which uses Node's built-in modules and sharp (started through
// worker-file.ts, which finds it under tsx, vitest, the compiled command line and the Next.js server
// build alike). What it does per file is what inspectImageBytes + storeScreenshotBytes do
// (lib/server/import/image.ts, lib/server/object-store/screenshots.ts, lib/server/object-store/local.ts): read it
// once; sha256 those bytes; take the size from a PNG's IHDR chunk; decode a PNG from those same bytes
// (proveDecodes' decode: every row, through sharp, within the size limits, shrunk on the way to the
// near-duplicate hash's 9x8 grey grid, issue 27) and only then store it as
// <store>/<sha[0:2]>/<sha>.png unless already there, through a temporary file renamed into place, so a
// PNG that does not decode never reaches the store. Anything else (not a PNG, a size over the limits, a
// store that is not a local folder, sharp not loadable here) comes back for the import's thread to finish
// the usual way.
//
// Why decode here (issue #22, item 5): the decode is most of an import's CPU (about 2.5 ms per phone
// screenshot). On the import's thread it cost a second read of every file and about 0.2-0.7 ms of that
// thread per call (sharp's options crossing into C++), and that thread is the import's serial part.
import path from "node:path";
import { Worker } from "node:worker_threads";
import { BUILT_BY_NEXT, startWorker } from "../jobs";

/** One file as the reader thread left it. */
export type RawImage =
  /** The file could not be read. */
  | { missing: true }
  /** A PNG measured, and stored when a store was given (only once it decoded). */
  | ({ sha256: string; width: number; height: number; bytes: number; stored: boolean } & Proof)
  /** Not measured (not a PNG) or not stored where bytes were asked for: the bytes, for the caller. */
  | ({ sha256: string; data: Buffer; png: { width: number; height: number } | null } & Proof);

/**
 * What the reader's decode of a PNG found: `decoded` when every row decoded, with `dhash`, the pixels'
 * near-duplicate hash (16 hex digits, lib/domain/near-duplicates.ts) made by that same decode; `undecodable`
 * with libvips' words when not (then the file was not stored); none when it was not decoded here (over the
 * size limits, not a PNG, or sharp not loadable in the thread): the import's thread decides as before.
 */
export type Proof = { decoded?: true; dhash?: string; undecodable?: string };

export type ReadRequest = {
  files: string[];
  /** Folder of the local store's screenshots (<data>/screenshots) to write PNGs into; null writes nothing. */
  storeDir: string | null;
  /** Send back the bytes of a PNG that was not stored (to be stored elsewhere by the caller). */
  wantBytes: boolean;
};

/** Sizes (pixels, as the header declares) the reader decodes; bigger ones are left to checkImageSize. */
export type ReaderLimits = { side: number; pixels: number };

/**
 * Reader threads per import. Paired runs at 26,777 steps on 2 busy cores: two took 0.86x the wall time
 * of one, three 0.74x that of two, four the same as three (0.99x); the CPU time stays the same.
 */
const READER_THREADS = 3;

/** A reader thread's answer to one request (its bytes arrive as plain Uint8Arrays). */
export type ReadReply = {
  id: number;
  out?: (RawImage | ({ sha256: string; data: Uint8Array; png: { width: number; height: number } | null } & Proof))[];
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

  /**
   * `limits`: the largest PNG (pixels per side and in all, as declared) a thread decodes; a bigger one comes
   * back undecoded for checkImageSize to refuse in its words.
   */
  constructor(limits: ReaderLimits, threads = READER_THREADS) {
    // Where sharp is loaded from: beside this module (the command line's bundle, vitest, tsx), else the
    // working folder (the studio's server, run from the checkout).
    const requireFrom = [import.meta.url, path.join(process.cwd(), "package.json")].filter((u) => /^(file:|\/)/.test(u));
    const fail = (e: Error) => {
      this.#failure ??= e;
      for (const w of this.#waiting.values()) w.reject(e);
      this.#waiting.clear();
    };
    this.#workers = Array.from({ length: threads }, () => {
      const worker = BUILT_BY_NEXT
        ? new Worker(new URL("./reader.worker.ts", import.meta.url), { workerData: { limits, requireFrom } })
        : startWorker(new URL("./reader.worker.ts", import.meta.url), { workerData: { limits, requireFrom } });
      worker.on("message", (m: ReadReply) => {
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
