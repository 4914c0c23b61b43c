// The layer rules are real: ESLint (eslint-plugin-boundaries, eslint.config.mjs) refuses an import against the
// allow lists, however it is spelled: by `@/`, by a relative path, by a dynamic import(), and a package the layer
// does not list. Every layer is probed; what each layer may import is allowed.
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
// The probes are files that do not exist; the type-aware rules need a file the TypeScript project holds, so
// they are probed apart (below) over the text of real files.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { "@typescript-eslint/no-floating-promises": "off", "@typescript-eslint/no-misused-promises": "off" },
  },
});
const typed = new ESLint({ cwd: ROOT });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "boundaries/dependencies").map((m) => m.message);
}

/** A file of another layer to import, relative to the repository root (without extension). */
const TARGETS = {
  server: "lib/server/db",
  components: "components/editor/drafts",
  bridge: "lib/bridge/grpo",
  domain: "lib/domain/geometry",
} as const;
type Target = keyof typeof TARGETS;

/** Each layer: where a probe file sits, a layer it must not import, and whether its package list is closed. */
const LAYERS: Array<{ layer: string; file: string; forbidden: Target; allowed: Target | null; packagesClosed: boolean }> = [
  { layer: "domain", file: "lib/domain/probe.ts", forbidden: "server", allowed: "domain", packagesClosed: true },
  { layer: "i18n", file: "lib/i18n/probe.ts", forbidden: "server", allowed: "domain", packagesClosed: true },
  { layer: "canvas", file: "lib/canvas/probe.ts", forbidden: "server", allowed: "domain", packagesClosed: true },
  { layer: "bridge", file: "lib/bridge/probe.ts", forbidden: "server", allowed: "domain", packagesClosed: true },
  { layer: "queries", file: "lib/queries/probe.ts", forbidden: "server", allowed: "domain", packagesClosed: true },
  { layer: "demo", file: "lib/demo/probe.ts", forbidden: "server", allowed: "domain", packagesClosed: true },
  { layer: "server", file: "lib/server/probe.ts", forbidden: "components", allowed: "domain", packagesClosed: true },
  { layer: "cli", file: "lib/cli/probe.ts", forbidden: "components", allowed: "server", packagesClosed: true },
  { layer: "components", file: "components/editor/probe.tsx", forbidden: "server", allowed: "domain", packagesClosed: true },
  { layer: "app", file: "app/probe/page.tsx", forbidden: "bridge", allowed: "server", packagesClosed: true },
  { layer: "host", file: "server/probe.ts", forbidden: "components", allowed: "server", packagesClosed: true },
  { layer: "fixtures", file: "fixtures/probe.ts", forbidden: "domain", allowed: null, packagesClosed: true },
  { layer: "scripts", file: "scripts/probe.ts", forbidden: "components", allowed: "server", packagesClosed: false },
  { layer: "e2e", file: "e2e/probe.ts", forbidden: "components", allowed: "domain", packagesClosed: false },
  { layer: "bench", file: "bench/probe.ts", forbidden: "components", allowed: "server", packagesClosed: false },
];

function relative(from: string, target: Target): string {
  const r = path.relative(path.dirname(path.join(ROOT, from)), path.join(ROOT, TARGETS[target]));
  return r.startsWith(".") ? r : `./${r}`;
}

describe("layer rules", () => {
  describe.each(LAYERS)("$layer ($file)", ({ file, forbidden, allowed, packagesClosed }) => {
    it(`refuses ${forbidden} by @/ path, relative path, dynamic import and re-export`, async () => {
      const spellings = [
        `import * as m from "@/${TARGETS[forbidden]}";\nexport const x = m;\n`,
        `import * as m from "${relative(file, forbidden)}";\nexport const x = m;\n`,
        `export const x = () => import("${relative(file, forbidden)}");\n`,
        `export * from "@/${TARGETS[forbidden]}";\n`,
      ];
      for (const code of spellings) expect(await layerErrors(file, code), code).toHaveLength(1);
    });

    it.runIf(packagesClosed)("refuses a package it does not list", async () => {
      expect(await layerErrors(file, `import pad from "left-pad";\nexport const x = pad;\n`)).toHaveLength(1);
    });

    it.runIf(allowed !== null)(`allows ${allowed}`, async () => {
      const code = `import * as m from "@/${TARGETS[allowed!]}";\nimport * as r from "${relative(file, allowed!)}";\nexport const x = [m, r];\n`;
      expect(await layerErrors(file, code)).toEqual([]);
    });
  });

  it("keeps Node's built-ins out of the layers that run in the browser or do no I/O", async () => {
    for (const file of ["lib/domain/probe.ts", "lib/canvas/probe.ts", "lib/i18n/probe.ts", "components/editor/probe.tsx"])
      expect(await layerErrors(file, `import { readFileSync } from "node:fs";\nexport const x = readFileSync;\n`), file).toHaveLength(1);
    expect(await layerErrors("lib/bridge/probe.ts", `import { readFile } from "node:fs/promises";\nexport const x = readFile;\n`)).toEqual(
      [],
    );
  });

  it("lets tests reach any layer", async () => {
    expect(await layerErrors("lib/domain/probe.test.ts", `import * as m from "@/lib/server/db";\nexport const x = m;\n`)).toEqual([]);
  });
});

// The capability folders of lib/server (ARCHITECTURE.md): one is entered only through its index.ts, however the
// path is spelled, and lib/server/testing only from tests. Inside a folder, files import each other freely.
describe("capability doors", () => {
  const errorsOf = async (file: string, code: string) =>
    ((await eslint.lintText(code, { filePath: path.join(ROOT, file) }))[0]?.messages ?? []).filter(
      (m) => m.ruleId === "boundaries/dependencies",
    );
  const FROM = "lib/server/review/probe.ts";

  it("refuses another capability's inner file by relative path, @/ path, import() and re-export", async () => {
    const spellings = [
      `import { recordAudit } from "../people/audit";\nexport const x = recordAudit;\n`,
      `import { recordAudit } from "@/lib/server/people/audit";\nexport const x = recordAudit;\n`,
      `export const x = () => import("../people/audit");\n`,
      `export { recordAudit } from "../people/audit";\n`,
      `import { migrate } from "../db/migrate";\nexport const x = migrate;\n`,
    ];
    for (const code of spellings) {
      const errors = await errorsOf(FROM, code);
      expect(errors, code).toHaveLength(1);
      expect(errors[0]!.message, code).toMatch(/through its index\.ts/);
    }
    // The same from outside lib/server: a page, the host, the command line.
    for (const file of ["app/probe/page.tsx", "server/probe.ts", "lib/cli/probe.ts"])
      expect(
        await errorsOf(file, `import { recordAudit } from "@/lib/server/people/audit";\nexport const x = recordAudit;\n`),
        file,
      ).toHaveLength(1);
  });

  it("lets the command line's import() name an inner file (it loads what a command needs when it runs), never testing", async () => {
    expect(await errorsOf("lib/cli/probe.ts", `export const x = () => import("@/lib/server/fast/stats-direct");\n`)).toEqual([]);
    expect(await errorsOf("lib/cli/probe.ts", `export const x = () => import("@/lib/server/testing/postgres");\n`)).toHaveLength(1);
    expect(await errorsOf("lib/server/review/probe.ts", `export const x = () => import("@/lib/server/fast/stats-direct");\n`)).toHaveLength(
      1,
    );
  });

  it("allows a capability's index.ts, its own inner files and the files at the root of lib/server", async () => {
    const code = `import { recordAudit } from "../people";\nimport * as q from "./queue";\nimport { env } from "../env";\nexport const x = [recordAudit, q, env];\n`;
    expect(await errorsOf(FROM, code)).toEqual([]);
    expect(
      await errorsOf("app/probe/page.tsx", `import { recordAudit } from "@/lib/server/people";\nexport const x = recordAudit;\n`),
    ).toEqual([]);
  });

  it("keeps lib/server/testing out of production code, by any path, and lets tests and browser specs use it", async () => {
    for (const code of [
      `import { startPostgres } from "../testing/postgres";\nexport const x = startPostgres;\n`,
      `export const x = () => import("@/lib/server/testing/postgres");\n`,
    ]) {
      const errors = await errorsOf(FROM, code);
      expect(errors.map((e) => e.message).join(" "), code).toMatch(/test helpers/);
    }
    expect(
      await errorsOf("app/probe/page.tsx", `import { freshStudio } from "@/lib/server/testing/fixtures";\nexport const x = freshStudio;\n`),
    ).not.toEqual([]);
    const fromTest = `import { startPostgres } from "../testing/postgres";\nimport { recordAudit } from "../people/audit";\nexport const x = [startPostgres, recordAudit];\n`;
    expect(await errorsOf("lib/server/review/probe.test.ts", fromTest)).toEqual([]);
    expect(
      await errorsOf("e2e/probe.ts", `import { startPostgres } from "../lib/server/testing/postgres";\nexport const x = startPostgres;\n`),
    ).toEqual([]);
  });
});

describe("promise rules (type-aware)", () => {
  const rulesHit = async (file: string, code: string) => {
    const [result] = await typed.lintText(code, { filePath: path.join(ROOT, file) });
    return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
  };
  const floating = `const later = async () => 1;\nexport function f() {\n  later();\n}\n`;
  const misused = `import { EventEmitter } from "node:events";\nexport const e = new EventEmitter();\ne.on("x", async () => {\n  await Promise.resolve();\n});\nexport const ok = [1].forEach(async () => {});\n`;

  it("refuse a promise nobody awaits, in every layer's code and in tests", async () => {
    for (const file of ["lib/server/http/body.ts", "lib/canvas/history.ts", "server/api-lane.ts", "lib/server/http/errors.test.ts"])
      expect(await rulesHit(file, floating), file).toContain("@typescript-eslint/no-floating-promises");
    expect(
      await rulesHit(
        "lib/server/http/body.ts",
        `const later = async () => 1;\nexport async function f() {\n  await later();\n  void later();\n}\n`,
      ),
    ).toEqual([]);
  }, 120_000);

  it("refuse an async function where a callback's return is ignored", async () => {
    expect(await rulesHit("lib/server/http/body.ts", misused)).toContain("@typescript-eslint/no-misused-promises");
  }, 120_000);
});
