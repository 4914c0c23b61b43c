// The import's raw reading of a JSONL file: its lines, streamed with a bound on each, and the nesting check.
import type { Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { MAX_LINE_BYTES } from "./options";

export type Line = { line: number; text: string } | { line: number; tooLong: number };

/**
 * The lines of the first `size` bytes of a file, streamed: at most MAX_LINE_BYTES of one line is ever
 * buffered (a longer line is reported by its length and skipped), so a file with no line breaks
 * cannot fill memory. `hash` sees every byte read.
 */
export async function* readLines(file: string, size: number, hash?: Hash): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  let line = 0;
  const finish = (): Line => {
    line += 1;
    const out: Line = tooLong
      ? { line, tooLong: length }
      : { line, text: Buffer.concat(parts, length).toString("utf8").replace(/\r$/, "") };
    // A byte-order mark before the first line (Windows editors write one) is not part of the JSON.
    if (line === 1 && "text" in out && out.text.charCodeAt(0) === 0xfeff) out.text = out.text.slice(1);
    parts = [];
    length = 0;
    tooLong = false;
    return out;
  };
  const take = (chunk: Buffer) => {
    length += chunk.length;
    if (length > MAX_LINE_BYTES) {
      tooLong = true;
      parts = [];
    } else if (!tooLong && chunk.length > 0) parts.push(chunk);
  };
  if (size === 0) return;
  for await (const chunk of createReadStream(file, { end: size - 1, highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash?.update(chunk);
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      if (nl === -1) break;
      take(chunk.subarray(from, nl));
      yield finish();
      from = nl + 1;
    }
    // Copy the tail: the stream's chunk buffer is reused.
    if (from < chunk.length) take(Buffer.from(chunk.subarray(from)));
  }
  if (length > 0 || tooLong) yield finish();
}

/**
 * True when JSON text nests arrays and objects more than `max` deep. Checked on the text before the
 * record is walked: every later step (the schema, the fingerprint, the stored copy) recurses into it,
 * and 20,000 levels would overflow the stack there, failing the whole job instead of naming the line.
 */
export function nestedDeeperThan(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}
