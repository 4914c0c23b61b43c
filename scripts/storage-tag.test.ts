// The browser suite's second pass (PostgreSQL + S3 store, scripts/test-all.mjs) runs only the specs tagged
// `@storage`: a spec runs twice only where the second store or dialect changes what it proves. This test keeps
// the tag honest: a spec whose own code uploads files, imports, exports, runs jobs, reads screenshots from the
// store, starts processes of its own or reads the database itself must carry the tag on every one of its tests.
// Seeding through the shared seed helpers (layout-seed, model-seed, lane-seed's seedDemoProjects) is not a
// marker: every spec seeds that way, and what the import does on each store is proven by the tagged specs.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const E2E = path.join(ROOT, "e2e");

/** What makes a spec's pass on PostgreSQL + S3 prove something the SQLite pass does not, by what its code calls. */
const STORAGE_MARKERS: { pattern: RegExp; reason: string }[] = [
  {
    pattern: /\/api\/imports|\bimportViaApi\(|\bmakeUiS1Zip\(|\bmakeBrokenJsonl\(|\bsetInputFiles\(|\bmultipart\b|\bimportPage\b/,
    reason: "uploads files or imports",
  },
  { pattern: /\/api\/exports|\bexportProject\(|\bExportPage\b|waitForEvent\("download"\)/, reason: "exports or downloads" },
  { pattern: /\/api\/[\w/-]*jobs\b|\/api\/eval|\/api\/releases/, reason: "runs jobs (model, eval, release)" },
  { pattern: /\/api\/screenshots/, reason: "reads screenshots from the store" },
  { pattern: /\bspawn(Sync)?\(/, reason: "starts processes of its own (more instances, the command line)" },
  { pattern: /\be2eDatabaseUrl\b|\be2eDataDir\b/, reason: "reads the database or the data folder itself" },
];

const stripComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

/** Why a spec's source must carry `@storage` (empty when it need not). */
function storageReasons(source: string): string[] {
  const code = stripComments(source);
  return STORAGE_MARKERS.filter((m) => m.pattern.test(code)).map((m) => m.reason);
}

type Listed = { file: string; title: string; tags: string[] };

/** Every browser test as Playwright lists it, with its tags (from `test(..., { tag })`, test.describe or the title). */
function listBrowserTests(): Listed[] {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/@playwright/test/cli.js"), "test", "--list", "--reporter=json", "--project=studio", "--project=servers"],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20, env: { ...process.env, E2E_DATABASE_URL: "", E2E_REPORT: "" } },
  );
  expect(r.status, r.stderr).toBe(0);
  const out: Listed[] = [];
  type Suite = { specs?: { file: string; title: string; tags: string[] }[]; suites?: Suite[] };
  const walk = (s: Suite) => {
    for (const spec of s.specs ?? []) out.push({ file: spec.file, title: spec.title, tags: spec.tags });
    for (const child of s.suites ?? []) walk(child);
  };
  for (const s of (JSON.parse(r.stdout) as { suites: Suite[] }).suites) walk(s);
  return out;
}

describe("the @storage tag of browser specs", () => {
  it("finds the markers in a spec's code, not in its comments", () => {
    expect(storageReasons(`const r = await request.post("/api/exports", { data });`)).toEqual(["exports or downloads"]);
    expect(storageReasons(`await importPage.upload(file);`)).toEqual(["uploads files or imports"]);
    expect(storageReasons(`await admin.post("/api/model/jobs", { data: { kind: "prefill" } });`)).toEqual([
      "runs jobs (model, eval, release)",
    ]);
    expect(storageReasons(`// unlike /api/exports, this only reads the list\nawait list.goto();`)).toEqual([]);
    expect(storageReasons(`await seedAnnotatorTask(request, baseURL, steps);`)).toEqual([]);
  });

  it("every test of a spec that touches storage, jobs or processes carries @storage", () => {
    const tests = listBrowserTests();
    const specs = readdirSync(E2E).filter((f) => f.endsWith(".spec.ts"));
    expect(specs.length).toBeGreaterThan(0);
    const untagged: string[] = [];
    for (const file of specs) {
      const reasons = storageReasons(readFileSync(path.join(E2E, file), "utf8"));
      if (reasons.length === 0) continue;
      const listed = tests.filter((t) => t.file === file);
      expect(listed.length, `${file} is listed by Playwright`).toBeGreaterThan(0);
      for (const t of listed) {
        if (!t.tags.includes("storage")) untagged.push(`e2e/${file}: "${t.title}" (${reasons.join("; ")})`);
      }
    }
    expect(untagged, "add { tag: \"@storage\" } to these tests (CONTRIBUTING.md, 'Browser specs and the CI budget')").toEqual([]);
  });
});
