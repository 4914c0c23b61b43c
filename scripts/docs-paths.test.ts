// The docs a newcomer reads first stay true to the repository: every repository path and npm script they
// name in backticks exists, and the README's Layout section names every folder (and names none that is gone).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const DOCS = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "docs/API.md"];
/** A token that starts with one of these is a path in the repository. */
const REPO_PATH = /^(\.ci|app|bench|components|docs|e2e|fixtures|lib|prisma|scripts)\//;
/** Files at the top of the repository that the docs name without a folder. */
const ROOT_FILES = new Set([
  "README.md",
  "ARCHITECTURE.md",
  "CONTRIBUTING.md",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "next.config.ts",
  "prisma.config.ts",
  "playwright.config.ts",
  "vitest.config.ts",
  "eslint.config.mjs",
  "proxy.ts",
  "instrumentation.ts",
  ".prettierrc.json",
  ".prettierignore",
  ".gitignore",
]);

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** `a/{b,c}.ts` -> a/b.ts, a/c.ts (one level of braces). */
function expandBraces(token: string): string[] {
  const m = token.match(/^(.*?)\{([^{}]+)\}(.*)$/);
  return m ? m[2]!.split(",").map((part) => `${m[1]}${part}${m[3]}`) : [token];
}

/** Every backticked span of a Markdown file, fenced blocks left out. */
function backticked(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

/** The repository paths a span names: each whitespace-separated token that looks like one, templates left out. */
function pathsIn(span: string): string[] {
  return span
    .split(/\s+/)
    .map((t) => t.replace(/[,;:)]+$/, "").replace(/^\(/, ""))
    .filter((t) => REPO_PATH.test(t) || ROOT_FILES.has(t))
    .filter((t) => !/[<>*…]/.test(t) && !/(^|[^[])\.\.\./.test(t))
    .flatMap(expandBraces)
    .map((t) => t.replace(/\/$/, ""));
}

/** A file, a folder, or a module named without its extension. */
const exists = (p: string) => [p, `${p}.ts`, `${p}.tsx`].some((candidate) => existsSync(path.join(ROOT, candidate)));

/** Every folder that holds a file git tracks or would track (ignored build output left out). */
function folders(): string[] {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && existsSync(path.join(ROOT, f)));
  const dirs = new Set<string>();
  for (const f of files) {
    for (let d = path.posix.dirname(f); d !== "."; d = path.posix.dirname(d)) dirs.add(d);
  }
  return [...dirs].sort();
}

describe("docs name what exists", () => {
  for (const doc of DOCS) {
    it(`${doc}: every repository path in backticks exists`, () => {
      const named = backticked(read(doc)).flatMap(pathsIn);
      expect(named.length, `${doc} names repository paths`).toBeGreaterThan(doc === "docs/API.md" ? 3 : 10);
      expect([...new Set(named.filter((p) => !exists(p)))]).toEqual([]);
    });

    it(`${doc}: every npm script it names is in package.json`, () => {
      const scripts = Object.keys((JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts);
      const named = backticked(read(doc)).flatMap((span) => [...span.matchAll(/\bnpm run (?:-s )?([\w:-]+)/g)].map((m) => m[1]!));
      expect([...new Set(named.filter((s) => !scripts.includes(s)))]).toEqual([]);
    });
  }
});

describe("the README's Layout section", () => {
  const readme = read("README.md");
  const section = readme.split(/^## /m).find((s) => s.startsWith("Layout\n")) ?? "";
  const block = section.match(/^```\n([\s\S]*?)^```/m)?.[1] ?? "";
  /** The folder each line of the layout block starts with ("lib/domain/"). */
  const listed = block
    .split("\n")
    .map((line) => line.match(/^([\w.-]+(?:\/[\w.-]+)*)\/\s/)?.[1])
    .filter((x): x is string => x !== undefined);

  it("is there, as a block of folders", () => {
    expect(listed.length).toBeGreaterThan(20);
  });

  it("names every top-level folder, and every folder under lib/ and components/", () => {
    const wanted = folders().filter((d) => !d.includes("/") || d.startsWith("lib/") || d.startsWith("components/"));
    expect(wanted.filter((d) => !listed.includes(d))).toEqual([]);
  });

  it("names only folders that exist", () => {
    expect(listed.filter((d) => !existsSync(path.join(ROOT, d)))).toEqual([]);
  });
});
