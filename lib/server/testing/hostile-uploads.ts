// Hostile uploads for tests and the bench, written to disk as a whole multipart/form-data body:
// junk (random bytes in lines, as a .jsonl) and zip bombs (small zips that expand enormously).
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import { crc32, deflateRawSync } from "node:zlib";

export const BOUNDARY = "----studio-hostile-upload";

/** Write a multipart body: text fields, then one file part whose content comes from `content`. */
export async function writeMultipart(
  out: string,
  fields: Record<string, string>,
  fileName: string,
  content: AsyncIterable<Buffer>,
): Promise<void> {
  const sink = createWriteStream(out);
  const write = async (b: Buffer | string) => {
    if (!sink.write(b)) await once(sink, "drain");
  };
  for (const [k, v] of Object.entries(fields)) await write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  await write(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
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

/**
 * A zip bomb: `entries` files of `entryBytes` zeros each, deflated once and the same compressed
 * bytes reused for every entry (as real bombs do), with honest sizes in its directory. 60 entries
 * of 100 MB make a zip of about 6 MB that expands to 6 GB; building it costs one deflate of 100 MB.
 */
export async function zipBomb(out: string, entries: number, entryBytes: number): Promise<void> {
  const zeros = Buffer.alloc(entryBytes);
  const data = deflateRawSync(zeros, { level: 9 });
  const crc = crc32(zeros);
  const sink = createWriteStream(out);
  const write = async (b: Buffer) => {
    if (!sink.write(b)) await once(sink, "drain");
  };
  const central: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < entries; i++) {
    const name = Buffer.from(`images/screen_${i}.png`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0, 6); // flags
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(entryBytes, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4); // made by
    cd.writeUInt16LE(20, 6); // needed
    cd.writeUInt16LE(0, 8);
    cd.writeUInt16LE(8, 10);
    cd.writeUInt16LE(0, 12);
    cd.writeUInt16LE(0x21, 14);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(data.length, 20);
    cd.writeUInt32LE(entryBytes, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    await write(local);
    await write(name);
    await write(data);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  await write(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries, 8);
  end.writeUInt16LE(entries, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  await write(end);
  sink.end();
  await once(sink, "finish");
}

/** The bytes of a file, as an async iterable (for writeMultipart). */
export function fileContent(file: string): AsyncIterable<Buffer> {
  return createReadStream(file) as AsyncIterable<Buffer>;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data and a correct CRC (so only what is inside can be wrong). */
export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const name = Buffer.from(type, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([name, data])));
  return Buffer.concat([len, name, data, crc]);
}

/** An IHDR chunk for 8-bit RGB of the given size (any 32-bit width or height, as a hostile file may declare). */
function ihdr(width: number, height: number): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = 8; // bit depth
  data[9] = 2; // colour type: RGB
  return pngChunk("IHDR", data);
}

/**
 * PNGs whose headers look like screenshots but whose pixels never decode (issue 22), by name: a header
 * with no pixel data declaring 60000x60000, a 1080x2400 header over random "pixel data", an HTML page
 * behind a PNG signature and header, and a width of 2^32-1 (past a 32-bit integer column).
 */
export function undecodablePngs(): Record<string, Buffer> {
  const end = pngChunk("IEND", Buffer.alloc(0));
  const html = Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>\n");
  return {
    "header-only.png": Buffer.concat([PNG_SIGNATURE, ihdr(60_000, 60_000), end]),
    "garbage-pixels.png": Buffer.concat([PNG_SIGNATURE, ihdr(1080, 2400), pngChunk("IDAT", randomBytes(64 * 1024)), end]),
    "polyglot.png": Buffer.concat([PNG_SIGNATURE, ihdr(1080, 2400), html]),
    "wide.png": Buffer.concat([PNG_SIGNATURE, ihdr(2 ** 32 - 1, 2400), pngChunk("IDAT", randomBytes(1024)), end]),
  };
}
