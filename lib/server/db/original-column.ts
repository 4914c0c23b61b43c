import type { ScreenElement } from "@/lib/domain/elements";
import type { OriginalOutput } from "@/lib/domain/trajectory";

// Step.originalJson holds everything a step was imported with and nobody edits: the model's output
// (OriginalOutput) and, under `elements`, the screen's element list. The elements are screen data, not
// model output, so the views carry them beside `original`; they share the column because both are
// written once at import and never change (no migration, and the hot reads already select it).

/** The stored text of a step's originalJson column. */
export function originalColumn(original: OriginalOutput, elements: ScreenElement[] | undefined): string {
  return JSON.stringify(elements ? { ...original, elements } : original);
}

/** A stored originalJson column split back into the model's output and the elements (both still unchecked). */
export function readOriginalColumn(json: string): { original: unknown; elements?: unknown } {
  const { elements, ...original } = JSON.parse(json) as Record<string, unknown>;
  return elements === undefined ? { original } : { original, elements };
}
