import { z } from "zod";

/** The annotated thought in Mobile-R1's shape: current state + next action + purpose. */
export const thoughtPartsSchema = z.object({
  state: z.string(),
  nextAction: z.string(),
  purpose: z.string(),
});
export type ThoughtParts = z.infer<typeof thoughtPartsSchema>;

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const SENTENCE_END = /[。！？.!?…]$/;

/**
 * Compose the three parts into one thought text. Each non-empty part becomes a sentence; Chinese
 * parts end with "。" and join without spaces, others end with "." and join with a space.
 */
export function composeThought(parts: ThoughtParts): string {
  const sentences = [parts.state, parts.nextAction, parts.purpose].map((s) => s.trim()).filter(Boolean);
  return sentences
    .map((s, i) => {
      const cjk = CJK.test(s);
      const ended = SENTENCE_END.test(s) ? s : `${s}${cjk ? "。" : "."}`;
      return i === 0 || cjk ? ended : ` ${ended}`;
    })
    .join("");
}

/** 。！？!? */
const MORE_MARKS = new Set([0x3002, 0xff01, 0xff1f, 0x21, 0x3f]);
const NEWLINE = 0x0a;
const FULL_STOP = 0x2e;
const WHITESPACE = /\s/;
const ABBREVIATION = /\b(e\.g|i\.e|etc|vs)\.$/i;

/**
 * Split text into sentences, keeping each sentence's end mark ("3.5" and "e.g." do not end one).
 * One pass over the UTF-16 units, comparing codes (no string per character: an import splits every
 * step's thought): every end mark is a single unit, so no half of a surrogate pair is one, nor whitespace.
 */
export function splitSentences(text: string): string[] {
  const s = text.replace(/\r\n?/g, "\n");
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    const last = i + 1 === s.length;
    const ends = MORE_MARKS.has(ch) || ch === NEWLINE || (ch === FULL_STOP && (last || WHITESPACE.test(s[i + 1]!)));
    if (!ends || (!last && MORE_MARKS.has(s.charCodeAt(i + 1)))) continue;
    const sentence = s.slice(start, i + 1);
    if (ch === FULL_STOP && ABBREVIATION.test(sentence)) continue;
    if (sentence.trim()) out.push(sentence.trim());
    start = i + 1;
  }
  const rest = s.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/**
 * Best-effort split of a model's free-form thought into the three parts: the first sentence is the
 * state, the last the purpose, the rest the next action. With fewer than three sentences all of it
 * stays in `state` and the annotator writes the rest.
 */
export function splitThought(text: string): ThoughtParts {
  const s = splitSentences(text);
  if (s.length < 3) return { state: text.trim(), nextAction: "", purpose: "" };
  const join = (xs: string[]) => xs.reduce((acc, x) => (acc === "" ? x : CJK.test(x) ? acc + x : `${acc} ${x}`), "");
  return { state: s[0]!, nextAction: join(s.slice(1, -1)), purpose: s[s.length - 1]! };
}
