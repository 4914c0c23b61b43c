// The shape a newcomer can find their room in (issue 23, "Done when"): no import cycle anywhere in the sources, no
// lib/server file over 400 lines, and no function over 150 lines outside the data tables and registries named below.
// These read the sources, so the rule holds for code written after it: a cycle, a long file or a long function added
// later fails here with its name.
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseCircular, parseDependencyTree } from "dpdm";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SKIP = new Set(["node_modules", "generated", ".next", ".tmp", "data"]);
const FOLDERS = ["app", "components", "lib", "server", "scripts", "bench", "e2e"];

/** Our sources under `dir` (relative to the root), tests included unless `tests` is false. */
function sources(dir: string, tests = true): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return SKIP.has(e.name) || e.name.startsWith("out") ? [] : sources(rel, tests);
    if (!/\.tsx?$/.test(e.name) || e.name.endsWith(".d.ts")) return [];
    return tests || !/\.(test|spec)\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

/** Long by nature: one table of every shortcut (each entry a line or two), one per editor mode. */
const LONG_ALLOWED = new Set(["lib/canvas/editor-shortcuts.ts:allShortcuts"]);

/** Every function (declared, arrow or method) longer than `max` lines in `file`, as "file:name (n lines)". */
function longFunctions(file: string, max: number): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const long: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const lines = sf.getLineAndCharacterOfPosition(node.end).line - first + 1;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : nameFromParent(node);
      if (lines > max && !LONG_ALLOWED.has(`${file}:${name}`)) long.push(`${file}:${first + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return long;
}

/** The name an arrow function or function expression is given by the variable or property that holds it. */
function nameFromParent(node: ts.Node): string {
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p)) && ts.isIdentifier(p.name)) return p.name.text;
  return "(anonymous)";
}

/** The capability folders of `server` (lib/server by default) and, for each, the folders its sources import. */
function folderImports(server = path.join(ROOT, "lib", "server")): Map<string, Set<string>> {
  const folders = readdirSync(server, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== "generated")
    .map((e) => e.name);
  const graph = new Map(folders.map((f) => [f, new Set<string>()]));
  const resolveFolder = (from: string, spec: string): string | undefined => {
    const abs = spec.startsWith("@/")
      ? path.join(ROOT, spec.slice(2))
      : spec.startsWith(".")
        ? path.resolve(path.dirname(from), spec)
        : null;
    if (!abs || !abs.startsWith(server + path.sep)) return undefined;
    return path.relative(server, abs).split(path.sep)[0];
  };
  for (const folder of folders) {
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory()
          ? walk(path.join(dir, e.name))
          : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)
            ? [path.join(dir, e.name)]
            : [],
      );
    for (const file of walk(path.join(server, folder)))
      for (const [, spec] of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
        const to = resolveFolder(file, spec!);
        if (to && to !== folder && graph.has(to)) graph.get(folder)!.add(to);
      }
  }
  return graph;
}

/** Each cycle of folders in `graph` (its strongly connected parts of more than one folder), as "a -> b -> a". */
function folderCycles(graph: Map<string, Set<string>>): string[] {
  const cycles: string[] = [];
  const onPath: string[] = [];
  const done = new Set<string>();
  const visit = (f: string) => {
    if (onPath.includes(f)) return void cycles.push([...onPath.slice(onPath.indexOf(f)), f].join(" -> "));
    if (done.has(f)) return;
    onPath.push(f);
    for (const to of graph.get(f) ?? []) visit(to);
    onPath.pop();
    done.add(f);
  };
  for (const f of graph.keys()) visit(f);
  return cycles;
}

describe("the code's shape", () => {
  it("has no two capability folders of lib/server that import each other, directly or round a longer cycle (types included)", () => {
    const graph = folderImports();
    expect(graph.size).toBeGreaterThan(10);
    expect(folderCycles(graph)).toEqual([]);
  });

  it("has no import cycle (type-only imports aside: they vanish when compiled)", async () => {
    const entries = FOLDERS.flatMap((d) => sources(d));
    const tree = await parseDependencyTree(entries, {
      context: ROOT,
      cwd: ROOT,
      tsconfig: path.join(ROOT, "tsconfig.json"),
      transform: true,
      exclude: /node_modules|[\\/]generated[\\/]/,
    });
    expect(parseCircular(tree).map((cycle) => cycle.join(" -> "))).toEqual([]);
  }, 120_000);

  it("keeps every lib/server source under 400 lines", () => {
    const long = sources("lib/server", false)
      .filter((f) => !f.startsWith(path.join("lib", "server", "testing")))
      .map((f) => [f, readFileSync(path.join(ROOT, f), "utf8").split("\n").length] as const)
      .filter(([, n]) => n > 400)
      .map(([f, n]) => `${f} (${n} lines)`);
    expect(long).toEqual([]);
  });

  it("has no function over 150 lines outside the tables and registries allowed by name", () => {
    const long = ["app", "components", "lib", "server", "scripts"].flatMap((d) => sources(d, false)).flatMap((f) => longFunctions(f, 150));
    expect(long).toEqual([]);
  });

  it("writes the export manifest's schema, the step row's annotation columns, the PNG header reader, smart_resize, uniqueBoxes and the scoring tally once, with no limiter of its own", () => {
    const code = FOLDERS.filter((d) => d !== "e2e" && d !== "bench").flatMap((d) => sources(d, false));
    const holding = (pattern: RegExp) => code.filter((f) => pattern.test(readFileSync(path.join(ROOT, f), "utf8")));
    // The format tag names the manifest's one schema; a second schema would spell it again.
    expect(holding(/trajectory-studio-export\//)).toEqual([path.join("lib", "domain", "export-manifest.ts")]);
    // An annotation becomes Step columns in one function (stepAnnotationColumns); its reverse is stepFromRow.
    expect(holding(/toolCallJson:\s*JSON\.stringify\(/)).toEqual([path.join("lib", "server", "annotate", "step-row.ts")]);
    expect(holding(/export function stepFromRow\(/)).toEqual([path.join("lib", "server", "annotate", "trajectories.ts")]);
    // The annotator's save and the reviewer's fix write an edited step through one statement (writeStepAnnotation).
    expect(holding(/UPDATE "Step" SET "thoughtState"/)).toEqual([path.join("lib", "server", "annotate", "step-row.ts")]);
    // One reader of a PNG's header (the import's thread and its reader thread share it), one smart_resize.
    expect(holding(/readUInt32BE\(16\)|getUint32\(16\)/)).toEqual([path.join("lib", "domain", "png.ts")]);
    expect(holding(/export function smartResize\(/)).toEqual([path.join("lib", "domain", "geometry.ts")]);
    // `bridge score` and the evaluation run count through one tally: the rewards' sums, the accuracy counts, the SOP.
    const tally = [path.join("lib", "domain", "score-tally.ts")];
    expect(holding(/\.format \+= r(esults\[\w+\])?\.format/)).toEqual(tally);
    expect(holding(/\+= \w+\.extractMatch \? 1 : 0/)).toEqual(tally);
    expect(holding(/= uiS1SopEpisode\(|\.indexOf\(false\)/)).toEqual(tally);
    // One body of smart_resize (qwen-vl-utils' and UI-S1's copies call it), one uniqueBoxes, one tally of a run's scores.
    expect(holding(/Math\.floor\(\w+ \/ beta \/ \w+\) \* \w+/)).toEqual([path.join("lib", "domain", "geometry.ts")]);
    expect(holding(/function uniqueBoxes\(/)).toEqual([path.join("lib", "domain", "geometry.ts")]);
    // No hand-written limiter or lock: queues and slots are p-queue's (a race over pending promises, or a waiter list
    // shifted by hand, is one written again).
    expect(holding(/Promise\.race\(this\.|\.shift\(\)\?\.\(\)|class (TaskPool|FifoLock)\b[^{]*\{\s*#(held|pending)/)).toEqual([]);
    expect(holding(/from "p-queue"/).length).toBeGreaterThanOrEqual(4);
  });

  it("finds a cycle and a long function when there is one (the probes work)", async () => {
    mkdirSync(path.join(ROOT, ".tmp"), { recursive: true });
    const dir = await mkdtemp(path.join(ROOT, ".tmp", "shape-probe-"));
    try {
      await writeFile(path.join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = () => b;\n');
      await writeFile(path.join(dir, "b.ts"), 'import { a } from "./a";\nexport const b = () => a;\n');
      await writeFile(path.join(dir, "c.ts"), 'import type { a } from "./a";\nexport type C = typeof a;\n');
      // Two folders that import each other, one of them by a type only.
      mkdirSync(path.join(dir, "server", "p"), { recursive: true });
      mkdirSync(path.join(dir, "server", "q"), { recursive: true });
      await writeFile(path.join(dir, "server", "p", "index.ts"), 'import { q } from "../q";\nexport const p = q;\n');
      await writeFile(
        path.join(dir, "server", "q", "index.ts"),
        'import type { p } from "../p/index";\nexport const q = 1 as unknown as typeof p;\n',
      );
      expect(folderCycles(folderImports(path.join(dir, "server")))).toEqual(["p -> q -> p"]);
      const tree = await parseDependencyTree([path.join(dir, "a.ts"), path.join(dir, "c.ts")], { context: dir, cwd: dir, transform: true });
      expect(parseCircular(tree)).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(longFunctions("lib/i18n/index.ts", 5).length).toBeGreaterThan(0);
    expect(
      folderCycles(
        new Map([
          ["a", new Set(["b"])],
          ["b", new Set(["c"])],
          ["c", new Set(["a"])],
          ["d", new Set(["a"])],
        ]),
      ),
    ).toEqual(["a -> b -> c -> a"]);
  }, 60_000);
});
