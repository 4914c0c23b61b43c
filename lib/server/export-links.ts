// Hard links for an export from a store on local disk, made by a worker thread while the export's
// main thread reads and formats the next page: on two cores the link calls (two per screenshot, a
// third of an export's work) then overlap the rest instead of adding to it.
import { Worker } from "node:worker_threads";

/** What became of one screenshot: placed now, already there (placed before), or missing from the store. */
export const PLACED = 1;
export const ALREADY_THERE = 0;
export const NOT_STORED = -1;

// Plain CommonJS run with `eval` (no module resolution: the same under tsx, vitest and the Next server).
// A message is one string, "from\0dest\0alsoDest\0..." (NUL is the one character no path holds; one
// string is cloned across far faster than a list of them): `from` is linked (or copied, on another file
// system) to `dest`, and `dest` to `alsoDest` unless that is "" (the export names each file in
// mobile-r1/images/ once, and may give one screenshot two names). The answer is an Int8Array of two
// outcomes per triple (dest, alsoDest), stopping after the first missing `from`; another failure
// answers { error: { message, code } }.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { constants, copyFileSync, existsSync, linkSync } = require("node:fs");
function place(from, dest) {
  try {
    linkSync(from, dest);
    return ${PLACED};
  } catch (e) {
    if (e.code === "EEXIST") return ${ALREADY_THERE};
    if (e.code === "ENOENT" && !existsSync(from)) return ${NOT_STORED};
  }
  try {
    copyFileSync(from, dest, constants.COPYFILE_EXCL);
    return ${PLACED};
  } catch (e) {
    if (e.code === "EEXIST") return ${ALREADY_THERE};
    if (e.code === "ENOENT" && !existsSync(from)) return ${NOT_STORED};
    throw e;
  }
}
parentPort.on("message", (joined) => {
  const list = joined === "" ? [] : joined.split("\\0");
  const out = new Int8Array((list.length / 3) * 2);
  try {
    for (let i = 0; 3 * i < list.length; i++) {
      const r = place(list[3 * i], list[3 * i + 1]);
      out[2 * i] = r;
      if (r === ${NOT_STORED}) break;
      if (list[3 * i + 2] === "") continue;
      const also = place(list[3 * i + 1], list[3 * i + 2]);
      if (also === ${NOT_STORED}) throw new Error("vanished: " + list[3 * i + 1]);
      out[2 * i + 1] = also;
    }
    parentPort.postMessage(out);
  } catch (e) {
    parentPort.postMessage({ error: { message: String(e && e.message), code: e && e.code } });
  }
});
`;

type Waiter = { resolve: (r: Int8Array) => void; reject: (e: Error) => void };

/** One worker thread making an export's links, batches answered in the order sent; close() it when done. */
export class LinkWorker {
  readonly #worker: Worker;
  readonly #waiting: Waiter[] = [];
  #failed: Error | undefined;
  constructor() {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true });
    this.#worker.on("message", (m: Int8Array | { error: { message: string; code?: string } }) => {
      const w = this.#waiting.shift();
      if (!w) return;
      if (m instanceof Int8Array) w.resolve(m);
      else w.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
    });
    const fail = (e: Error) => {
      this.#failed = e;
      for (const w of this.#waiting.splice(0)) w.reject(e);
    };
    this.#worker.on("error", fail);
    this.#worker.on("exit", (code) => fail(new Error(`the export's link worker stopped (exit ${code})`)));
  }
  /** Place each [from, dest, alsoDest] triple (a flat list); two outcomes per triple (dest, alsoDest), in order. */
  place(list: string[]): Promise<Int8Array> {
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#worker.postMessage(list.join("\0"));
    });
  }
  async close(): Promise<void> {
    this.#worker.removeAllListeners("exit");
    await this.#worker.terminate();
  }
}
