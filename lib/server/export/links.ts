// Hard links for an export from a store on local disk, made by a worker thread while the export's
// main thread reads and formats the next page: on two cores the link calls (two per screenshot, a
// third of an export's work) then overlap the rest instead of adding to it.
import { Worker } from "node:worker_threads";
import type { LinkReply } from "./links-outcomes";
import { BUILT_BY_NEXT, startWorker } from "../jobs";

export { ALREADY_THERE, NOT_STORED, PLACED } from "./links-outcomes";

type Waiter = { resolve: (r: Int8Array) => void; reject: (e: Error) => void };

/** One worker thread making an export's links, batches answered in the order sent; close() it when done. */
export class LinkWorker {
  readonly #worker: Worker;
  readonly #waiting: Waiter[] = [];
  #failed: Error | undefined;
  constructor() {
    this.#worker = BUILT_BY_NEXT
      ? new Worker(new URL("./links.worker.ts", import.meta.url))
      : startWorker(new URL("./links.worker.ts", import.meta.url));
    this.#worker.on("message", (m: LinkReply) => {
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
