// The layer rules are real: ESLint refuses an import against the arrows (domain <- server | bridge | canvas <- queries | components <- app).
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: ROOT });

async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("layer rules", () => {
  const refused: Array<[string, string]> = [
    ["components/editor/probe.tsx", `import { db } from "@/lib/server/db";\nexport const x = db;\n`],
    ["components/review/probe.tsx", `import { GRPO_TARGETS } from "@/lib/bridge/grpo";\nexport const x = GRPO_TARGETS;\n`],
    ["lib/canvas/probe.ts", `import { GRPO_TARGETS } from "@/lib/bridge/grpo";\nexport const x = GRPO_TARGETS;\n`],
    ["lib/canvas/probe.ts", `import { useState } from "react";\nexport const x = useState;\n`],
    ["lib/domain/probe.ts", `import { readFileSync } from "node:fs";\nexport const x = readFileSync;\n`],
    ["lib/domain/probe.ts", `import { db } from "../server/db";\nexport const x = db;\n`],
    ["lib/domain/probe.ts", `import { db } from "@/lib/server/db";\nexport const x = db;\n`],
    ["lib/bridge/probe.ts", `import { db } from "@/lib/server/db";\nexport const x = db;\n`],
    ["lib/queries/probe.ts", `import { db } from "@/lib/server/db";\nexport const x = db;\n`],
    ["lib/server/probe.ts", `import { GRPO_TARGETS } from "@/lib/bridge/grpo";\nexport const x = GRPO_TARGETS;\n`],
  ];
  it.each(refused)("%s: refuses %s", async (file, code) => {
    expect(await restrictedImports(file, code)).not.toEqual([]);
  });

  const allowed: Array<[string, string]> = [
    ["lib/domain/probe.ts", `import { z } from "zod";\nimport { smartResize } from "./geometry";\nexport const x = [z, smartResize];\n`],
    [
      "lib/bridge/probe.ts",
      `import { smartResize } from "@/lib/domain/geometry";\nimport { readFile } from "node:fs/promises";\nexport const x = [smartResize, readFile];\n`,
    ],
    ["lib/server/probe.ts", `import { smartResize } from "@/lib/domain/geometry";\nexport const x = smartResize;\n`],
    ["components/editor/probe.tsx", `import { smartResize } from "@/lib/domain/geometry";\nexport const x = smartResize;\n`],
    ["app/probe/page.tsx", `import { db } from "@/lib/server/db";\nexport const x = db;\n`],
  ];
  it.each(allowed)("%s: allows %s", async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });
});
