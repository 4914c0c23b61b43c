import { readFile } from "node:fs/promises";
import path from "node:path";

/** The prompt versions in use; a new version is a new file, so provenance names stay meaningful. */
export const PROMPTS = { thought: "suggest-thought.v2", action: "suggest-action.v1", judge: "judge.v2" } as const;

export type PromptFile = { name: string; system: string; user: string };

/** Read lib/server/model/prompts/<name>.md: the header comment dropped, split at `--- system ---` / `--- user ---`. */
export async function loadPrompt(name: string): Promise<PromptFile> {
  const file = path.join(process.cwd(), "lib", "server", "model", "prompts", `${name}.md`);
  const text = (await readFile(file, "utf8")).replace(/<!--[\s\S]*?-->\s*/, "");
  const m = text.match(/--- system ---\n([\s\S]*?)\n--- user ---\n([\s\S]*)$/);
  if (!m) throw new Error(`prompt ${name}: expected a "--- system ---" and a "--- user ---" section`);
  return { name, system: m[1]!.trim(), user: m[2]!.trim() };
}

/** Fill {{name}} placeholders; an unknown placeholder is a mistake in the prompt file. */
export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => {
    if (!(k in vars)) throw new Error(`prompt placeholder {{${k}}} has no value`);
    return String(vars[k]);
  });
}
