// Screenshots placed through the object store (a bucket, or a store that is not a local folder):
// downloads and links in flight through a queue. A local store's links go to the link worker (links.ts).
import { constants } from "node:fs";
import { copyFile, link } from "node:fs/promises";
import path from "node:path";
import { copyScreenshotTo } from "../object-store";
import type { FileList } from "./files";

/**
 * Store files are immutable and named by their content, so an export hard-links them (no bytes
 * copied) when it is on the same file system, and copies them otherwise. False when `to` is already
 * there (the same content, exported before).
 */
async function linkOrCopy(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    try {
      await copyFile(from, to, constants.COPYFILE_EXCL);
      return true;
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw e2;
    }
  }
}

/** Links in flight at once (the file system's thread pool runs four; a few more keep it busy). */
const LINKS_IN_FLIGHT = 16;

/**
 * Each screenshot hard-linked (or copied) into screenshots/ and mobile-r1/images/, LINKS_IN_FLIGHT at a
 * time, and listed in the manifest in the order the export first met it (the same data gives the same
 * manifest). No set of exported files is kept: the export folder is that set (a second link of a file
 * fails with EEXIST), and a screenshot met again while its first copy is in flight waits for that copy.
 * `r1` (its name in mobile-r1/images/) is null when an earlier step placed that name already.
 */
export class LinkQueue {
  readonly #queue: { done: Promise<{ first: boolean; named: boolean }>; rel: string; r1: string | null; sha256: string }[] = [];
  /** The copy in flight per screenshot, so a repeat (under another mobile-r1 name) links from a finished file. */
  readonly #inFlight = new Map<string, Promise<boolean>>();
  readonly #listed: FileList;
  linked = 0;
  constructor(listed: FileList) {
    this.#listed = listed;
  }
  async add(mime: string, work: string, rel: string, r1: string | null, sha256: string): Promise<void> {
    const dest = path.join(work, rel);
    const earlier = this.#inFlight.get(sha256);
    // Linked from the local store, or downloaded from the bucket; false when an earlier trajectory
    // placed it already (the export folder is the record of what is done).
    const copy = earlier ?? copyScreenshotTo(sha256, mime, dest);
    if (!earlier) {
      this.#inFlight.set(sha256, copy);
      void copy.finally(() => this.#inFlight.delete(sha256)).catch(() => {});
    }
    const done = (async () => {
      const first = (await copy) && !earlier;
      const named = r1 !== null && (await linkOrCopy(dest, path.join(work, r1)));
      return { first, named };
    })();
    done.catch(() => {}); // awaited in order by #next(); this only keeps an early failure from being "unhandled"
    this.#queue.push({ done, rel, r1, sha256 });
    if (this.#queue.length >= LINKS_IN_FLIGHT) await this.#next();
  }
  async #next(): Promise<void> {
    const head = this.#queue.shift()!;
    const { first, named } = await head.done;
    if (first) {
      this.linked += 1;
      this.#listed.add(head.rel, head.sha256);
    }
    if (named && head.r1 !== null) this.#listed.add(head.r1, head.sha256);
  }
  async drain(): Promise<void> {
    while (this.#queue.length > 0) await this.#next();
  }
  /** Wait for the links in flight, ignoring their outcome (before removing a failed export's folder). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.#queue.map((q) => q.done));
  }
}
