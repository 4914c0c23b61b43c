// The repository stands alone: no source file reads outside it or names a folder of one particular machine.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
// Written split so that this file does not match itself.
const FORBIDDEN = [
  ["/wo", "rk/"],
  ["/ho", "me/"],
  ["/ro", "ot/"],
  ["../sha", "red"],
  ["/Us", "ers/"],
].map((parts) => parts.join(""));

function sourceFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  return out
    .split("\n")
    .filter((f) => /\.(ts|tsx|mts|mjs|js|py|json|sh)$/.test(f) && !f.startsWith("fixtures/") && f !== "package-lock.json");
}

describe("self-contained repository", () => {
  it("no source file names a path outside the repository", () => {
    const hits: string[] = [];
    for (const file of sourceFiles()) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      text.split("\n").forEach((line, i) => {
        for (const bad of FORBIDDEN) if (line.includes(bad)) hits.push(`${file}:${i + 1}: ${bad}`);
      });
    }
    expect(hits).toEqual([]);
  });
});
