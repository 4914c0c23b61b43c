import type { z } from "zod";

/**
 * What can be wrong with imported data, one code per kind, with its English words (`{name}` is a
 * parameter). The import page words a problem from the catalogue (`importProblem.<code>`, English
 * taken from here, Chinese beside it) so a Chinese reader gets a Chinese sentence; the CLI and logs
 * print `message`, these words filled in. Parameters are data (a file name, the value found, a parser's
 * own detail) and are shown as they are.
 */
export const IMPORT_PROBLEM_WORDS = {
  missing: "is missing",
  noToolCall: "no <tool_call> (or JSON <action>) found",
  noThink: "no <think> found",
  noAction: "is missing (no action and no <tool_call> in the response)",
  notPoint: "is not a point [x, y]: {value}",
  notNonNegative: "must be a non-negative number, got {value}",
  notStatus: "must be success or failure, got {value}",
  notButton: "must be one of {allowed}, got {value}",
  notDirection: "must be up, down, left or right, got {value}",
  scrollNeedsSize: "a direction-only scroll needs the screenshot size",
  notJson: "is not valid JSON: {value}",
  notObject: "must be an object, got {value}",
  unknownTool: 'unknown tool "{name}", expected "mobile_use"',
  unknownAction: 'unknown action "{action}"',
  wrongType: "must be {expected}",
  empty: "is empty",
  tooSmall: "is too small (at least {minimum})",
  tooBig: "is too large (at most {maximum})",
  notAllowed: "must be one of {allowed}",
  invalid: "is not valid: {detail}",
  notBox: "is not a box [x1, y1, x2, y2]: {detail}",
  offScreen: "{box} lies outside the {width}x{height} screenshot",
  frameOriginal: "the studio format is always in original pixels; import it with --frame original",
  coordsRel1000: 'the line declares "qwen3-rel1000" coordinates; import it with --frame rel1000',
  coordsAbs: 'the line declares "qwen25-abs" coordinates; import it without --frame rel1000',
  coordsUnknown: "the line declares {declared} coordinates; the studio reads qwen25-abs and qwen3-rel1000",
  cutPastEnd: "{cut} is past the last step ({last})",
  screenshotMissing: "screenshot file not found: {file}",
  screenshotUnreadable: "screenshot {file} is not a readable image ({detail})",
  screenshotUndecodable: "screenshot {file} does not decode as an image ({detail})",
  screenshotFormat: "screenshot {file} is a {format} image; PNG, JPEG or WebP expected",
  screenshotTooLarge: "screenshot {file} declares {width}x{height} pixels; at most {side} per side and {pixels} in all are accepted",
  lineTooLong: "the line is {bytes} bytes long; at most {max} MB per trajectory is read",
  brokenJson: "broken JSON: {detail}",
  tooDeep: "the JSON nests deeper than {depth} levels; a trajectory needs about 10",
  emptyFile: "the file holds no trajectories",
  interrupted: "the import was interrupted; nothing was imported",
  /** Words stored before problems had codes, or a server failure's own words: shown as they are. */
  other: "{detail}",
} as const;

export type ImportProblemCode = keyof typeof IMPORT_PROBLEM_WORDS;
export const IMPORT_PROBLEM_CODES = Object.keys(IMPORT_PROBLEM_WORDS) as [ImportProblemCode, ...ImportProblemCode[]];
/** A problem's parameters: data, shown as written in every language. */
export type ProblemParams = Record<string, string | number>;

/** `words` with its `{name}` parameters filled in (a missing one stays as written). */
export function fillWords(words: string, params: ProblemParams = {}): string {
  return words.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** A problem's code, parameters and English message, for the parsers to push. */
export function problemOf(
  code: ImportProblemCode,
  params?: ProblemParams,
): { code: ImportProblemCode; params?: ProblemParams; message: string } {
  return { code, ...(params ? { params } : {}), message: fillWords(IMPORT_PROBLEM_WORDS[code], params) };
}

/**
 * A schema's complaint about one field as a problem code: the kinds a person meets get their own words
 * in the catalogue; the rest keep zod's as a detail. The English `message` stays the schema's own
 * sentence ("must be at most 2,000 characters", "expected number to be >0", a refinement's words),
 * which says more than the code's words can; only a missing field reads "is missing".
 */
export function zodIssueProblem(i: z.core.$ZodIssue): ReturnType<typeof problemOf> {
  const coded = codedZodIssue(i);
  return coded.code === "missing" ? coded : { ...coded, message: i.message };
}

function codedZodIssue(i: z.core.$ZodIssue): ReturnType<typeof problemOf> {
  switch (i.code) {
    case "invalid_type":
      return /received undefined$/.test(i.message) ? problemOf("missing") : problemOf("wrongType", { expected: i.expected });
    case "too_small":
      return Number(i.minimum) <= 1 && (i.origin === "array" || i.origin === "string")
        ? problemOf("empty")
        : problemOf("tooSmall", { minimum: String(i.minimum) });
    case "too_big":
      return problemOf("tooBig", { maximum: String(i.maximum) });
    case "invalid_value":
      return problemOf("notAllowed", { allowed: i.values.map((v) => String(v)).join(", ") });
    default:
      return problemOf("invalid", { detail: i.message });
  }
}

/** One thing wrong with imported data, located as precisely as the input allows. */
export type ImportProblem = {
  file: string;
  /** 1-based line in a JSON Lines file. */
  line?: number;
  /** 0-based step index inside the trajectory (people read it 1-based: formatProblem, the import page). */
  step?: number;
  field?: string;
  /** What kind of problem: the import page words it from the catalogue with `params`. */
  code: ImportProblemCode;
  params?: ProblemParams;
  /** The English words (CLI, logs, older clients). */
  message: string;
};

/** One line for a person: "data.jsonl:3 step 2 screenshot: …" (steps counted from 1). */
export function formatProblem(p: Pick<ImportProblem, "file" | "line" | "step" | "field" | "message">): string {
  const where = [p.file + (p.line !== undefined ? `:${p.line}` : ""), p.step !== undefined ? `step ${p.step + 1}` : undefined, p.field]
    .filter(Boolean)
    .join(" ");
  return `${where}: ${p.message}`;
}

/** A kind of import problem and how many of the listed problems are of it. */
export type ProblemKind = { field: string; code: ImportProblemCode; message: string; count: number };

/**
 * Group problems by kind, most frequent first (ties in first-seen order): the field with its list
 * indexes as `#` (`candidate_bbox.3` → `candidate_bbox.#`) and the problem's code, so 206
 * "screenshot file not found: …" lines read as one kind with a count of 206. Problems without a
 * code of their own (`other`: words stored before codes) are told apart by their message up to
 * the detail that differs per record (the text after the first ": ", or a quoted or bracketed value).
 * `message` is the kind's English words, its parameters left out.
 */
export function problemKinds(problems: readonly ImportProblem[]): ProblemKind[] {
  const kinds = new Map<string, ProblemKind>();
  for (const p of problems) {
    const field = (p.field ?? "").replace(/\.\d+(?=\.|$)/g, ".#");
    const message =
      p.code === "other"
        ? p.message
            .split(/: |\s["“'[(]/)[0]!
            .replace(/\d+/g, "#")
            .trim()
        : IMPORT_PROBLEM_WORDS[p.code].replace(/\{\w+\}/g, "…");
    const key = `${field}\u0000${p.code}\u0000${message}`;
    const kind = kinds.get(key);
    if (kind) kind.count += 1;
    else kinds.set(key, { field, code: p.code, message, count: 1 });
  }
  return [...kinds.values()].sort((a, b) => b.count - a.count);
}
