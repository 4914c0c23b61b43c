/** One thing wrong with imported data, located as precisely as the input allows. */
export type ImportProblem = {
  file: string;
  /** 1-based line in a JSON Lines file. */
  line?: number;
  /** 0-based step index inside the trajectory (people read it 1-based: formatProblem, the import page). */
  step?: number;
  field?: string;
  message: string;
};

/** One line for a person: "data.jsonl:3 step 2 screenshot: …" (steps counted from 1). */
export function formatProblem(p: ImportProblem): string {
  const where = [p.file + (p.line !== undefined ? `:${p.line}` : ""), p.step !== undefined ? `step ${p.step + 1}` : undefined, p.field]
    .filter(Boolean)
    .join(" ");
  return `${where}: ${p.message}`;
}
