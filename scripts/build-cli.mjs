// The compiled command line: lib/cli/main.ts bundled by esbuild into .tmp/cli/, so `npm run studio` starts
// without transpiling TypeScript (tsx took about 2 s a start). Plain JavaScript on purpose: it runs before
// anything is compiled.
//
//   node scripts/build-cli.mjs     build now (`npm ci` runs it after generating the Prisma clients)
//   cliEntry()                     what scripts/studio.mjs calls on every start: the built entry, rebuilt
//                                  first when any file it was built from changed
//
// A build writes content-addressed files (studio-<hash>.mjs and its chunks) next to older ones, then
// .tmp/cli/manifest.json in one rename: a process still running an older build keeps finding its chunks, and
// two processes that rebuild at once write the same bytes under the same names. The manifest lists every
// input (our sources, and each bundled package's package.json) with its size and modification time; a start
// stats them (about 120 files, a few milliseconds) and rebuilds when one differs or is gone, so nobody runs a
// stale command line.
//
// Bundled: our code and the small pure-JS packages (zod, yauzl, hyparquet...), one chunk per dynamic import()
// so a command loads only what it uses. Left to node: native and very large packages (EXTERNAL).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");
const ENTRY = "lib/cli/main.ts";
/** Loaded by node from node_modules at run time: native addons, and packages too large to bundle for their use. */
export const EXTERNAL = ["better-sqlite3", "sharp", "@prisma/*", "pg", "@aws-sdk/*", "better-auth", "better-auth/*"];
const MANIFEST_FORMAT = 1;
/** Files of older builds are removed once this old (a long-running command may still load their chunks). */
const KEEP_OLD_MS = 24 * 3600 * 1000;

/** Where the compiled command line lives (ignored by git, like the rest of .tmp). */
export const CLI_DIR = path.join(ROOT, ".tmp", "cli");

/**
 * Rewrites import.meta.url, .dirname and .filename in our own sources to the source file's, so a module that
 * finds a file beside itself (lib/demo/fonts.ts, fixtures/index.ts, lib/bridge/reward-plugin.ts) finds it from
 * the bundle too. Relative to the bundle, so the checkout can move.
 */
function sourceLocation(outDir, workers = new Map()) {
  return {
    name: "source-location",
    setup(build) {
      build.onLoad({ filter: /\.(ts|tsx|mts|mjs|js)$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = readFileSync(args.path, "utf8");
        if (!source.includes("import.meta.")) return undefined;
        // A worker named beside its caller (`new URL("./x.worker.ts", import.meta.url)`, lib/server/jobs/worker-file.ts)
        // runs from its own built file beside the bundle: that URL is the bundle's, not the source's.
        const text = source.replace(WORKER_URL, (whole, name) => {
          const built = workers.get(path.resolve(path.dirname(args.path), name));
          return built ? `new URL(${JSON.stringify(`./${built}`)}, import.meta["url"])` : whole;
        });
        const rel = JSON.stringify(path.relative(outDir, args.path).split(path.sep).join("/"));
        const url = `new URL(${rel}, import.meta.url)`;
        const contents =
          text
            .replace(/\bimport\.meta\.url\b/g, `${url}.href`)
            .replace(/\bimport\.meta\.filename\b/g, `__cliFileURLToPath(${url})`)
            .replace(/\bimport\.meta\.dirname\b/g, `__cliDirname(__cliFileURLToPath(${url}))`) +
          // Imports are hoisted, so appended ones keep the file's line numbers for its source map.
          `\nimport { fileURLToPath as __cliFileURLToPath } from "node:url";\nimport { dirname as __cliDirname } from "node:path";\n`;
        const ext = path.extname(args.path).slice(1);
        return { contents, loader: ext === "mts" ? "ts" : ext === "mjs" ? "js" : ext, resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** How a caller names its worker thread's file (lib/server/jobs/worker-file.ts). */
const WORKER_URL = /new URL\(\s*"\.\/([\w.-]+\.worker\.ts)"\s*,\s*import\.meta\.url\s*\)/g;

/** Every worker thread's source (lib/server/**\/*.worker.ts): built as entry points of their own. */
function workerSources(root) {
  const dir = path.join(root, "lib", "server");
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".worker.ts") && !f.includes("generated"))
    .map((f) => path.join(dir, f));
}

/**
 * Prisma's query compiler ships as a 4.4 MB JavaScript module holding the wasm as one base64 string; parsing
 * that string and decoding it took about 0.5 s of every command that opens the database. The build decodes it
 * once into a .wasm file beside the bundle, and the bundle's stand-in module reads those bytes (Prisma's
 * decodeBase64AsWasm copies a Buffer as it is: Buffer.from(buffer, "base64") ignores the encoding).
 */
function prismaWasm(outDir, extraInputs) {
  const filter = /^@prisma\/client\/runtime\/(query_compiler_[a-z]+_bg\.[a-z]+)\.wasm-base64\.mjs$/;
  return {
    name: "prisma-wasm",
    setup(build) {
      // @prisma/* is external, so esbuild would not resolve it: it lives in the checkout's node_modules.
      build.onResolve({ filter }, (args) => ({
        path: path.join(build.initialOptions.absWorkingDir, "node_modules", args.path),
        namespace: "prisma-wasm",
        pluginData: filter.exec(args.path)[1],
      }));
      build.onLoad({ filter: /.*/, namespace: "prisma-wasm" }, async (args) => {
        const { wasm } = await import(pathToFileURL(args.path).href);
        const bytes = Buffer.from(wasm, "base64");
        const { createHash } = await import("node:crypto");
        const name = `${args.pluginData}-${createHash("sha256").update(bytes).digest("hex").slice(0, 12)}.wasm`;
        mkdirSync(outDir, { recursive: true });
        if (!existsSync(path.join(outDir, name))) {
          writeFileSync(path.join(outDir, `${name}.${process.pid}.tmp`), bytes);
          renameSync(path.join(outDir, `${name}.${process.pid}.tmp`), path.join(outDir, name));
        }
        extraInputs.push({ source: args.path, output: name });
        return {
          contents: `import { readFileSync } from "node:fs";\nexport const wasm = readFileSync(new URL(${JSON.stringify(`./${name}`)}, import.meta.url));\n`,
          loader: "js",
        };
      });
    },
  };
}

/** Build the command line now; returns the entry file's absolute path. */
export async function buildCli({ root = ROOT, entry = ENTRY, outDir = path.join(root, ".tmp", "cli"), quiet = false } = {}) {
  const esbuild = await import("esbuild");
  const wasmFiles = [];
  // The worker threads first: their file names (content-addressed) are written into the bundle that starts them.
  const workerEntries = Object.fromEntries(workerSources(root).map((f) => [path.basename(f, ".ts"), f]));
  const workerBuild = await esbuild.build({
    absWorkingDir: root,
    entryPoints: workerEntries,
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    outdir: outDir,
    entryNames: "[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    external: EXTERNAL,
    packages: "external",
    tsconfig: existsSync(path.join(root, "tsconfig.json")) ? path.join(root, "tsconfig.json") : undefined,
    sourcemap: "linked",
    metafile: true,
    write: false,
    logLevel: quiet ? "error" : "warning",
  });
  const workers = new Map(
    Object.entries(workerBuild.metafile.outputs)
      .filter(([, o]) => o.entryPoint)
      .map(([out, o]) => [path.resolve(root, o.entryPoint), path.basename(out)]),
  );
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { studio: entry },
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    splitting: true,
    outdir: outDir,
    entryNames: "[name]-[hash]",
    chunkNames: "[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    external: EXTERNAL,
    tsconfig: existsSync(path.join(root, "tsconfig.json")) ? path.join(root, "tsconfig.json") : undefined,
    // The bundled CommonJS packages (yauzl, diff...) call require() for node's own modules.
    banner: {
      js: 'import { createRequire as __cliCreateRequire } from "node:module"; const require = __cliCreateRequire(import.meta.url);',
    },
    sourcemap: "linked",
    metafile: true,
    write: false,
    logLevel: quiet ? "error" : "warning",
    plugins: [prismaWasm(outDir, wasmFiles), sourceLocation(outDir, workers)],
  });
  mkdirSync(outDir, { recursive: true });
  for (const f of [...workerBuild.outputFiles, ...result.outputFiles]) {
    // Content-addressed names: an existing file already holds these bytes (a source map's name follows its chunk's).
    if (existsSync(f.path) && !f.path.endsWith(".map")) continue;
    const tmp = `${f.path}.${process.pid}.tmp`;
    writeFileSync(tmp, f.contents);
    renameSync(tmp, f.path);
  }
  // Each dynamic import() is an entry point of its own in the metafile; ours is the one named `entry`.
  const entryFile = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === entry)?.[0];
  if (!entryFile) throw new Error("esbuild wrote no entry point");
  const inputs = [
    ...Object.keys(result.metafile.inputs),
    ...Object.keys(workerBuild.metafile.inputs),
    ...wasmFiles.map((w) => path.relative(root, w.source)),
    path.relative(root, fileURLToPath(import.meta.url)),
  ];
  if (existsSync(path.join(root, "tsconfig.json"))) inputs.push("tsconfig.json");
  // A bundled package stands for all its files by its package.json, which an install or upgrade rewrites.
  const watched = new Set(
    inputs.filter((p) => !p.includes(":")).map((p) => p.replace(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\/.*$/, "$1/package.json")),
  );
  const manifest = {
    format: MANIFEST_FORMAT,
    entry: path.basename(entryFile),
    builtAt: new Date().toISOString(),
    inputs: [...watched].map((p) => [p, ...fingerprint(path.resolve(root, p))]),
  };
  const manifestFile = path.join(outDir, "manifest.json");
  const tmp = `${manifestFile}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(manifest)}\n`);
  renameSync(tmp, manifestFile);
  prune(
    outDir,
    new Set(
      [...Object.keys(result.metafile.outputs), ...Object.keys(workerBuild.metafile.outputs)]
        .map((o) => path.basename(o))
        .flatMap((o) => [o, `${o}.map`]),
    ),
  );
  return path.join(outDir, manifest.entry);
}

/** [size, mtimeMs] of a file, or null when it is gone. */
function fingerprint(file) {
  try {
    const s = statSync(file);
    return [s.size, s.mtimeMs];
  } catch {
    return [null, null];
  }
}

/** Remove what older builds left, once it is old enough that nothing still runs from it. */
function prune(outDir, keep) {
  const now = Date.now();
  for (const name of readdirSync(outDir)) {
    if (keep.has(name) || name === "manifest.json") continue;
    const file = path.join(outDir, name);
    try {
      // A .tmp file may be another build's, about to be renamed: it goes only once as old as the rest.
      if (now - statSync(file).mtimeMs > KEEP_OLD_MS) rmSync(file, { force: true });
    } catch {
      // removed by another build meanwhile
    }
  }
}

/**
 * The built entry when it is up to date with every file it was built from; null when there is no build, or
 * a source changed (size or modification time), appeared where one was missing, or was removed.
 */
export function freshCli({ root = ROOT, outDir = path.join(root, ".tmp", "cli") } = {}) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(outDir, "manifest.json"), "utf8"));
  } catch {
    return null;
  }
  if (manifest.format !== MANIFEST_FORMAT) return null;
  for (const [rel, size, mtimeMs] of manifest.inputs) {
    const [s, m] = fingerprint(path.resolve(root, rel));
    if (s !== size || m !== mtimeMs) return null;
  }
  const entry = path.join(outDir, manifest.entry);
  return existsSync(entry) ? entry : null;
}

/** The entry to run: the current build, or a new one when a source changed since (said on stderr). */
export async function cliEntry(options = {}) {
  const fresh = freshCli(options);
  if (fresh) return fresh;
  const why = existsSync(path.join(options.outDir ?? path.join(options.root ?? ROOT, ".tmp", "cli"), "manifest.json"))
    ? "a source changed since the last build"
    : "not compiled yet";
  process.stderr.write(`studio: compiling the command line (${why})...\n`);
  return buildCli({ ...options, quiet: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const entry = await buildCli();
  console.log(`built the command line: ${path.relative(ROOT, entry)} (${Math.round(performance.now() - started)} ms)`);
}
