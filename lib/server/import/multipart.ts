// Receiving a multipart upload: streamed to disk by busboy, bounded in bytes, fields and names.
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import busboy, { type Busboy } from "busboy";
import { appError, isDiskFull, type AppError } from "../errors";

/** Largest request body accepted, in bytes (checked on Content-Length and while streaming). */
export const MAX_UPLOAD_BYTES = 2 * 1024 ** 3;
const MAX_FIELD_BYTES = 10_000;
const MAX_FIELDS = 50;

export type ReceivedFile = { name: string; file: string; bytes: number };
export type Received = { fields: Record<string, string>; files: ReceivedFile[] };

export function tooLarge(): AppError {
  return appError("payload_too_large", "error.uploadTooLarge", { gb: MAX_UPLOAD_BYTES / 1024 ** 3 });
}

/** A client-supplied file name reduced to a safe base name, or an error. */
function safeName(raw: string): string {
  const name = path.posix.basename(raw.replace(/\\/g, "/"));
  if (!name || name === "." || name === ".." || name.includes("\0")) throw appError("bad_request", "error.uploadBadName", { name: raw });
  return name;
}

/**
 * Stream a multipart/form-data body to disk with busboy: text fields are collected (small), file parts are
 * written to `dir` under their base names. Counts bytes and stops at MAX_UPLOAD_BYTES.
 */
export async function receiveMultipart(req: Request, dir: string): Promise<Received> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type) || !req.body) throw appError("bad_request", "error.uploadMultipart");
  let parser: Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      // Browsers send file names as raw UTF-8 bytes.
      defParamCharset: "utf8",
      limits: { fieldSize: MAX_FIELD_BYTES, fields: MAX_FIELDS, headerPairs: 32 },
    });
  } catch {
    throw appError("bad_request", "error.uploadMultipart");
  }
  await mkdir(dir, { recursive: true });
  const fields: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  const writes: Promise<void>[] = [];
  let failure: AppError | null = null;
  const fail = (e: AppError) => {
    failure ??= e;
  };
  // A file that cannot be written (a full disk) ends the read at once: busboy would wait for it to drain forever.
  let writeError: unknown = null;
  let writeFailed: (e: unknown) => void = () => undefined;
  const stalled = new Promise<never>((_, reject) => (writeFailed = reject));
  stalled.catch(() => undefined);
  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fail(appError("bad_request", "error.uploadFieldTooLong", { name }));
    else fields[name] = value;
  });
  parser.on("fieldsLimit", () => fail(appError("bad_request", "error.uploadTooManyFields", { max: MAX_FIELDS })));
  parser.on("file", (_field, stream, info) => {
    // A file input left empty sends a part with filename="": skip it like a text field nobody reads.
    if (!info.filename) {
      stream.resume();
      return;
    }
    const name = safeName(info.filename);
    const entry: ReceivedFile = { name, file: path.join(dir, `${files.length}-${name}`), bytes: 0 };
    files.push(entry);
    stream.on("data", (chunk: Buffer) => {
      entry.bytes += chunk.length;
    });
    const sink = createWriteStream(entry.file);
    const written = pipeline(stream, sink).catch((e: unknown) => {
      const err = isDiskFull(e) ? appError("insufficient_storage", "error.diskFullUpload", { name }) : e;
      writeError ??= err;
      writeFailed(err);
    });
    writes.push(written);
  });
  let parseError: unknown = null;
  const finished = new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", (e) => {
      parseError = e;
      reject(e);
    });
  });
  // Until the body is fed, a parse error is only recorded; awaiting `finished` below reports it.
  finished.catch(() => undefined);

  const reader = req.body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > MAX_UPLOAD_BYTES) throw tooLarge();
      if (failure) throw failure;
      if (writeError) throw writeError;
      if (!parser.write(value)) await Promise.race([once(parser, "drain"), finished, stalled]);
    }
    parser.end();
    await Promise.race([finished, stalled]);
    await Promise.all(writes);
    if (writeError) throw writeError;
  } catch (e) {
    await reader.cancel().catch(() => {});
    parser.destroy();
    await Promise.allSettled(writes);
    if (failure) throw failure;
    if (writeError) throw writeError;
    // Only what busboy found wrong with the body is the sender's fault; a write that failed (a full disk)
    // goes up as it is, to be answered in its own words.
    if (e !== parseError) throw e;
    // busboy's words for a body that stops before its closing boundary.
    if (e instanceof Error && /unexpected end of (form|file)/i.test(e.message)) throw appError("bad_request", "error.uploadEndedEarly");
    throw appError("bad_request", "error.uploadMalformed");
  }
  if (failure) throw failure;
  return { fields, files };
}
