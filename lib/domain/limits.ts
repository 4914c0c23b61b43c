import { z } from "zod";

/**
 * Every size limit of the studio, in one place. Lengths are in characters (UTF-16 code units, as
 * JavaScript counts them), bodies in bytes. Schemas build their strings with `text(...)` so a value
 * over a limit is refused with a message naming the limit, and the HTTP layer bounds every request
 * body before parsing it.
 *
 * The figures are generous for real work (a model's thought is a few hundred characters, a typed
 * text a line) and small enough that one request can never grow a page or a history by megabytes.
 */
export const LIMITS = {
  /** RFC 5321: an address is at most 254 characters. */
  email: 254,
  personName: 100,
  passwordMin: 8,
  passwordMax: 256,
  tokenName: 60,
  projectName: 100,
  appName: 100,
  /** A task instruction (the goal an agent was given). */
  instruction: 4_000,
  systemPrompt: 100_000,
  /** Each of a thought's parts (state, next action, purpose): as long as a whole thought, since an imported thought may be one part. */
  thoughtPart: 10_000,
  /** The whole thought text. */
  thought: 10_000,
  clearAction: 1_000,
  /** Text inside a tool call (typed text, an answer, a key, an app name). */
  toolCallText: 4_000,
  comment: 4_000,
  /** An id in a path or a body (cuid, uuid, export folder name). */
  id: 200,
  /** A search or filter text. */
  query: 200,
  /** A split spec such as random:<seed>:<ratios>. */
  split: 500,
  /** JSON bodies of the studio's API routes. */
  jsonBodyBytes: 1_000_000,
  /**
   * An over-limit body is still read (and dropped) up to this many bytes before its 413 is sent, so the
   * answer reaches a client that is still sending (closing on it mid-send shows a network error instead);
   * past this the connection is closed.
   */
  drainBodyBytes: 16_000_000,
  /** Bodies of the sign-in, sign-out and password-change endpoints. */
  authBodyBytes: 16_000,
  /** Free text copied into an audit row (labels, ids a caller sent). */
  auditText: 300,
  /**
   * Screen elements imported with a step (an accessibility tree's nodes): how many per step, and the
   * length of each one's text, resource id and class. A phone screen's tree has a few hundred nodes.
   */
  elementsPerStep: 2_000,
  elementText: 2_000,
  elementResourceId: 300,
  elementClass: 200,
  /**
   * A screenshot's width or height, in pixels: WebP's own limit (16,383), so the display variant can
   * always be made. A phone screen is 1,080-1,440 wide; a long scrolling capture a few thousand high.
   */
  screenshotSide: 16_383,
  /** A screenshot's width x height, in pixels (decoding one holds 4 bytes per pixel; a 4K screen is 8.3 million). */
  screenshotPixels: 40_000_000,
  /**
   * A model's answer as the studio keeps it (a suggestion's raw text, an evaluation step's response): cut
   * to this many characters. A real answer (a thought, an action, one tool call) is a few hundred; an
   * endpoint that runs on for megabytes must not grow a run's failures list by megabytes per step.
   */
  modelAnswer: 20_000,
  /** How deep the JSON of one imported line may nest (arrays and objects): a trajectory needs about 10. */
  jsonDepth: 64,
} as const;

export type LimitName = keyof typeof LIMITS;

/**
 * Characters no text may hold: NUL (U+0000). PostgreSQL refuses it in text columns (SQLite would keep
 * it), so accepting it would make what one database saved unmovable to the other; refused on both.
 */
const REFUSED_CHARACTER = "\u0000";

/** True when `value` holds a character no stored text may hold (see REFUSED_CHARACTER). */
export function hasRefusedCharacter(value: string): boolean {
  return value.includes(REFUSED_CHARACTER);
}

/** The message a field with a refused character gets (the same from every schema and the import). */
export const REFUSED_CHARACTER_MESSAGE = "must not contain the NUL character (\\u0000)";

/**
 * A string schema capped at LIMITS[name] (in UTF-16 code units), with a message that names the limit,
 * and refusing the NUL character (what PostgreSQL cannot store), so a value is accepted by the
 * save and the import alike, on SQLite and PostgreSQL alike.
 */
export function text(name: LimitName) {
  const max = LIMITS[name];
  return z
    .string()
    .max(max, `must be at most ${max.toLocaleString("en-US")} characters`)
    .refine((s) => !hasRefusedCharacter(s), REFUSED_CHARACTER_MESSAGE);
}

/** Cut `value` to at most `max` characters, saying how much was left out. */
export function truncate(value: string, max: number = LIMITS.auditText): string {
  if (value.length <= max) return value;
  const note = `… (${value.length - max} more characters)`;
  return value.slice(0, Math.max(0, max - note.length)) + note;
}
