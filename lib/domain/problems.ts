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

/** A kind of import problem and how many of the listed problems are of it. */
export type ProblemKind = { field: string; message: string; count: number };

/**
 * Group problems by kind, most frequent first (ties in first-seen order): the field with its list
 * indexes as `#` (`candidate_bbox.3` → `candidate_bbox.#`) and the message up to the detail that
 * differs per record (the text after the first ": ", or a quoted or bracketed value), so 206
 * "screenshot file not found: …" lines read as one kind with a count of 206.
 */
export function problemKinds(problems: readonly ImportProblem[]): ProblemKind[] {
  const kinds = new Map<string, ProblemKind>();
  for (const p of problems) {
    const field = (p.field ?? "").replace(/\.\d+(?=\.|$)/g, ".#");
    const message = p.message
      .split(/: |\s["“'[(]/)[0]!
      .replace(/\d+/g, "#")
      .trim();
    const key = `${field}\u0000${message}`;
    const kind = kinds.get(key);
    if (kind) kind.count += 1;
    else kinds.set(key, { field, message, count: 1 });
  }
  return [...kinds.values()].sort((a, b) => b.count - a.count);
}
