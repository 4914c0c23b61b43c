// `tsx lib/server/testing/upload-file.ts <multipart body file>`: send a multipart body from disk
// through the upload import exactly as the route does (streamed, as the server receives it), in a
// process of its own so its peak memory is its own. Prints one JSON line: the outcome, the peak
// resident memory, and what was left in the data folder's tmp/. Used by tests and `npm run bench`.
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { dataDir } from "../env";
import { AppError } from "../errors/errors";
import { migrate } from "../db/migrate";
import { importUpload } from "../import/upload";
import { BOUNDARY } from "./hostile-uploads";

const file = process.argv[2]!;
await migrate();
const started = performance.now();
const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
const req = new Request("http://studio.local/api/imports", {
  method: "POST",
  headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "content-length": String((await stat(file)).size) },
  body,
  duplex: "half",
} as RequestInit);
let outcome: Record<string, unknown>;
try {
  const r = await importUpload(req);
  outcome = r.ok
    ? { outcome: "imported", trajectories: r.trajectories }
    : { outcome: "problems", problemCount: r.problemCount, kept: r.problems.length, first: r.problems[0] };
} catch (e) {
  outcome = e instanceof AppError ? { outcome: "refused", code: e.code, message: e.message } : { outcome: "crashed", message: String(e) };
}
const tmp = path.join(dataDir(), "tmp");
const left = await readdir(tmp, { recursive: true }).catch(() => []);
console.log(
  JSON.stringify({
    ...outcome,
    seconds: +((performance.now() - started) / 1000).toFixed(2),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    tmpLeft: left.length,
  }),
);
