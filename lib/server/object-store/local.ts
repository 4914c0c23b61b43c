// The default store: a folder on local disk (<data dir>/screenshots, <data dir>/variants).
import { randomBytes } from "node:crypto";
import { constants, createReadStream } from "node:fs";
import { copyFile, link, mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { ObjectStore } from "./store";

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === "ENOENT";

async function writeAtomically(target: string, write: (tmp: string) => Promise<void>): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await write(tmp);
    await rename(tmp, target);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
}

export function localStore(root: string): ObjectStore & { fileOf: (key: string) => string } {
  const fileOf = (key: string) => path.join(root, ...key.split("/"));
  return {
    description: `local folder ${root}`,
    fileOf,
    localFile: fileOf,
    async exists(key) {
      try {
        await stat(fileOf(key));
        return true;
      } catch (e) {
        if (isMissing(e)) return false;
        throw e;
      }
    },
    putFile: (key, file) => writeAtomically(fileOf(key), (tmp) => copyFile(file, tmp)),
    putBytes: (key, bytes) => writeAtomically(fileOf(key), (tmp) => writeFile(tmp, bytes)),
    async open(key) {
      const file = fileOf(key);
      let size: number;
      try {
        size = (await stat(file)).size;
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
      return { body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, size };
    },
    async read(key) {
      try {
        return await readFile(fileOf(key));
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },
    async copyToFile(key, dest) {
      const file = fileOf(key);
      try {
        await link(file, dest);
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "EEXIST") throw e;
        if (isMissing(e) && !(await this.exists(key))) return false;
      }
      try {
        // Another file system: a copy, never over a file already there.
        await copyFile(file, dest, constants.COPYFILE_EXCL);
        return true;
      } catch (e) {
        if (isMissing(e) && !(await this.exists(key))) return false;
        throw e;
      }
    },
    async check() {
      await mkdir(root, { recursive: true });
    },
  };
}
