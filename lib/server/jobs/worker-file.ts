// Worker threads from TypeScript files (import-reader.worker.ts, export-links.worker.ts), type-checked and
// linted like the rest, in each way the studio runs. A caller names its worker as
// `startWorker(new URL("./x.worker.ts", import.meta.url))`, and that URL arrives as one of:
// - a built JavaScript file: the compiled command line's (scripts/build-cli.mjs builds every *.worker.ts as
//   an entry point of its own and points this URL at it); run as it is;
// - the TypeScript source itself: vitest, tsx and the test children run the sources, and Node 20 runs no
//   TypeScript in a worker (a loader given to the worker with --import is not applied to its entry). The
//   source is bundled once per process by esbuild (already the command line's builder; about 10 ms) into a
//   content-addressed file under the system's temporary folder, and that file runs.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import type * as esbuildModule from "esbuild";
import { BUILT_BY_NEXT } from "../env";

type Esbuild = typeof esbuildModule;

/**
 * True in the Next server build, false everywhere else (read in lib/server/env.ts). Turbopack bundles a worker
 * (TypeScript and its imports, into a chunk of its own) only from the literal form `new Worker(new URL("./x.worker.ts",
 * import.meta.url))`, so each caller writes that form under this flag.
 */
export { BUILT_BY_NEXT };

const compiled = new Map<string, URL>();

/** Start a worker thread from `url`: a built worker file as it is, a TypeScript source compiled first. */
export function startWorker(url: URL, options?: WorkerOptions): Worker {
  return new Worker(runnable(url), options);
}

/** The file a worker thread can run for `url` (the same URL unless it names a TypeScript source). */
export function runnable(url: URL): URL {
  if (url.protocol !== "file:" || !url.pathname.endsWith(".ts")) return url;
  const source = fileURLToPath(url);
  let out = compiled.get(source);
  if (!out) {
    out = compile(source);
    compiled.set(source, out);
  }
  return out;
}

function compile(source: string): URL {
  // Loaded here, at run time, so no bundle of the studio takes esbuild in (the server build keeps it external).
  const esbuild = createRequire(import.meta.url)("esbuild") as Esbuild;
  const result = esbuild.buildSync({
    entryPoints: [source],
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    // Packages stay node's to load (a worker loads sharp from where the studio found it).
    packages: "external",
    write: false,
    logLevel: "error",
  });
  const code = result.outputFiles[0]!.contents;
  const name = `${path.basename(source, ".ts")}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`;
  const dir = path.join(os.tmpdir(), `studio-workers-${os.userInfo().uid}`);
  const file = path.join(dir, name);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Two processes compiling at once write the same bytes under the same name; the rename makes it whole.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  }
  return pathToFileURL(file);
}
