// The export's link thread (started by lib/server/export/links.ts through startWorker). A message is one
// string, "from\0dest\0alsoDest\0..." (NUL is the one character no path holds; one string is cloned across
// far faster than a list of them): `from` is linked (or copied, on another file system) to `dest`, and `dest`
// to `alsoDest` unless that is "" (the export names each file in mobile-r1/images/ once, and may give one
// screenshot two names). The answer is an Int8Array of two outcomes per triple (dest, alsoDest), stopping
// after the first missing `from`; another failure answers { error: { message, code } }.
import { constants, copyFileSync, existsSync, linkSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { ALREADY_THERE, NOT_STORED, PLACED, type LinkReply } from "./links-outcomes";

const port = parentPort!;
const code = (e: unknown) => (e as NodeJS.ErrnoException).code;

/** Link `from` to `dest` (a copy on another file system): PLACED, ALREADY_THERE or NOT_STORED. */
function place(from: string, dest: string): number {
  try {
    linkSync(from, dest);
    return PLACED;
  } catch (e) {
    if (code(e) === "EEXIST") return ALREADY_THERE;
    if (code(e) === "ENOENT" && !existsSync(from)) return NOT_STORED;
  }
  try {
    copyFileSync(from, dest, constants.COPYFILE_EXCL);
    return PLACED;
  } catch (e) {
    if (code(e) === "EEXIST") return ALREADY_THERE;
    if (code(e) === "ENOENT" && !existsSync(from)) return NOT_STORED;
    throw e;
  }
}

port.on("message", (joined: string) => {
  const list = joined === "" ? [] : joined.split("\0");
  const out = new Int8Array((list.length / 3) * 2);
  try {
    for (let i = 0; 3 * i < list.length; i++) {
      const r = place(list[3 * i]!, list[3 * i + 1]!);
      out[2 * i] = r;
      if (r === NOT_STORED) break;
      if (list[3 * i + 2] === "") continue;
      const also = place(list[3 * i + 1]!, list[3 * i + 2]!);
      if (also === NOT_STORED) throw new Error(`vanished: ${list[3 * i + 1]}`);
      out[2 * i + 1] = also;
    }
    port.postMessage(out satisfies LinkReply);
  } catch (e) {
    const err = e as NodeJS.ErrnoException | undefined;
    port.postMessage({ error: { message: String(err?.message), ...(err?.code ? { code: err.code } : {}) } } satisfies LinkReply);
  }
});
