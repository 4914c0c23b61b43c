// The bench's lower bounds: the least work an import or an export of the same data must do, with plain
// fs calls and the raw driver, timed in this process (not its start). Prints one JSON line { seconds }.
//
//   import <source dir> <imported studio dir> <scratch dir>
//     read every screenshot of <source>/data.jsonl once, sha256 it and write a copy (the store's work);
//     then insert the very rows the studio's import wrote (its Screenshot, Trajectory and Step rows,
//     read beforehand, not timed) into a fresh studio database, with the same schema and indexes,
//     through better-sqlite3 prepared statements in one transaction.
//   decode <source dir> <imported studio dir> <scratch dir>
//     what issue #22 item 4 adds to the import: a bare sharp decode of every distinct screenshot of
//     <source>/data.jsonl (the import's own decode: every row inflated and shrunk to the near-duplicate hash,
//     dHashOf, within the pixel limit, libvips' cache off), from bytes read beforehand (not timed), four at a
//     time. Not part of the issue's bound; the bench prints the import against the bound and against the bound
//     plus this.
//   export <export dir> <studio dir> <scratch dir>
//     write the same bytes as every non-screenshot file of the export (read beforehand, not timed) and
//     hard-link the same screenshot files from the studio's store, into <scratch>.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { link, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { LIMITS } from "@/lib/domain/limits";
import { dHashOf } from "@/lib/domain/near-duplicates";

const [mode, a, b, scratchArg] = process.argv.slice(2);
if (!mode || !a || !b || !scratchArg) throw new Error("usage: bench/baseline.ts import|decode|export <a> <b> <scratch>");
const scratch: string = scratchArg;

/** The distinct screenshot file names of <source>/data.jsonl (Mobile-R1 release rows), in order met. */
async function screenshotNames(source: string): Promise<string[]> {
  const names: string[] = [];
  const seen = new Set<string>();
  for await (const line of createInterface({ input: createReadStream(path.join(source, "data.jsonl"), "utf8"), crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    for (const s of (JSON.parse(line) as { trajectory: { image: string }[] }).trajectory) {
      if (!seen.has(s.image)) names.push(s.image);
      seen.add(s.image);
    }
  }
  return names;
}

async function importBound(source: string, studio: string): Promise<number> {
  const names = await screenshotNames(source);
  const from = new Database(path.join(studio, "studio.db"), { readonly: true });
  const tables = ["Screenshot", "Trajectory", "Step"].map((name) => {
    const rows = from.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][];
    const cols = from
      .prepare(`SELECT * FROM "${name}" LIMIT 1`)
      .columns()
      .map((c) => c.name);
    return { name, rows, cols };
  });
  const project = from.prepare(`SELECT * FROM "Project"`).raw().all() as unknown[][];
  const batch = from.prepare(`SELECT * FROM "ImportBatch"`).raw().all() as unknown[][];
  from.close();
  const url = `file:${path.join(scratch, "studio.db")}`;
  process.env.STUDIO_DATA_DIR = scratch;
  const { migrate } = await import("@/lib/server/db/migrate");
  await migrate(url);
  const to = new Database(path.join(scratch, "studio.db"));
  to.pragma("journal_mode = WAL");
  const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(", ");
  // The rows' parents (not timed): the project and batch they belong to.
  for (const [name, rows] of [
    ["Project", project],
    ["ImportBatch", batch],
  ] as const) {
    for (const r of rows) to.prepare(`INSERT INTO "${name}" VALUES (${placeholders(r.length)})`).run(r);
  }
  const copies = path.join(scratch, "copies");
  await mkdir(copies, { recursive: true });

  const started = performance.now();
  const dir = path.join(source, "images");
  let next = 0;
  // Four at a time, as fs's thread pool runs them.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        const bytes = await readFile(path.join(dir, name));
        const sha = createHash("sha256").update(bytes).digest("hex");
        await writeFile(path.join(copies, sha), bytes);
      }
    }),
  );
  to.transaction(() => {
    for (const t of tables) {
      const insert = to.prepare(
        `INSERT INTO "${t.name}" (${t.cols.map((c) => `"${c}"`).join(", ")}) VALUES (${placeholders(t.cols.length)})`,
      );
      for (const r of t.rows) insert.run(r);
    }
  }).immediate();
  const seconds = (performance.now() - started) / 1000;
  to.close();
  return seconds;
}

async function decodeAll(source: string): Promise<number> {
  const names = await screenshotNames(source);
  const dir = path.join(source, "images");
  const { default: sharp } = await import("sharp");
  sharp.cache(false);
  const files: Buffer[] = [];
  for (const name of names) files.push(await readFile(path.join(dir, name)));
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < files.length) {
        const bytes = files[next++]!;
        // The import's one decode per screenshot: every row inflated and shrunk to its dHash (issue 27).
        await dHashOf(sharp(bytes, { limitInputPixels: LIMITS.screenshotPixels, failOn: "error" }));
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

async function exportBound(exportDir: string, studio: string): Promise<number> {
  const files: { rel: string; bytes?: Buffer; store?: string }[] = [];
  const dirs = new Set<string>();
  for (const e of await readdir(exportDir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = path.join(e.parentPath, e.name);
    const rel = path.relative(exportDir, abs);
    dirs.add(path.dirname(rel));
    const m = /^([0-9a-f]{64})\.(png|jpg|webp)$/.exec(e.name);
    if (m) files.push({ rel, store: path.join(studio, "screenshots", m[1]!.slice(0, 2), e.name) });
    else files.push({ rel, bytes: await readFile(abs) });
  }
  const out = path.join(scratch, "export");
  const started = performance.now();
  for (const d of [...dirs].sort()) await mkdir(path.join(out, d), { recursive: true });
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < files.length) {
        const f = files[next++]!;
        if (f.store) await link(f.store, path.join(out, f.rel));
        else await writeFile(path.join(out, f.rel), f.bytes!);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

const seconds = mode === "import" ? await importBound(a, b) : mode === "decode" ? await decodeAll(a) : await exportBound(a, b);
console.log(JSON.stringify({ seconds }));
