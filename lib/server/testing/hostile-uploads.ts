// Hostile uploads for tests and the bench, written to disk as a whole multipart/form-data body:
// junk (random bytes in lines, as a .jsonl) and zip bombs (small zips that expand enormously).
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yazl from "yazl";

export const BOUNDARY = "----studio-hostile-upload";

/** Write a multipart body: text fields, then one file part whose content comes from `content`. */
export async function writeMultipart(out: string, fields: Record<string, string>, fileName: string, content: AsyncIterable<Buffer>): Promise<void> {
  const sink = createWriteStream(out);
  const write = async (b: Buffer | string) => {
    if (!sink.write(b)) await once(sink, "drain");
  };
  for (const [k, v] of Object.entries(fields)) await write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  await write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  for await (const chunk of content) await write(chunk);
  await write(`\r\n--${BOUNDARY}--\r\n`);
  sink.end();
  await once(sink, "finish");
}

/**
 * `bytes` of random junk in lines of about `lineBytes` (no line is blank): exactly
 * ceil(bytes / lineBytes) lines, so an import must report exactly that many problems.
 */
export async function* junkLines(bytes: number, lineBytes = 256): AsyncGenerator<Buffer> {
  const perChunk = Math.max(1, Math.floor((1024 * 1024) / lineBytes));
  let left = bytes;
  while (left > 0) {
    const n = Math.min(left, perChunk * lineBytes);
    const b = randomBytes(n);
    for (let i = 0; i < n; i++) if (b[i] === 0x0a || b[i] === 0x0d) b[i] = 0x41;
    for (let end = lineBytes - 1; end < n; end += lineBytes) b[end] = 0x0a;
    left -= n;
    yield b;
  }
}

export const junkLineCount = (bytes: number, lineBytes = 256) => Math.ceil(bytes / lineBytes);

/** A zip of `entries` files of `entryBytes` zeros each, deflated: a few hundred KB per 300 MB. */
export async function zipBomb(out: string, entries: number, entryBytes: number): Promise<void> {
  const zip = new yazl.ZipFile();
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < entries; i++) {
    const stream = Readable.from(
      (function* () {
        for (let left = entryBytes; left > 0; left -= zeros.length) yield left >= zeros.length ? zeros : zeros.subarray(0, left);
      })(),
    );
    zip.addReadStream(stream, `images/screen_${i}.png`, { compress: true, size: entryBytes });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(out));
}

/** The bytes of a file, as an async iterable (for writeMultipart). */
export function fileContent(file: string): AsyncIterable<Buffer> {
  return createReadStream(file) as AsyncIterable<Buffer>;
}
