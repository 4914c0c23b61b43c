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

/** Split text into sentences, keeping each sentence's end mark ("3.5" and "e.g." do not end one). */
export function splitSentences(text: string): string[] {
  const chars = [...text.replace(/\r\n?/g, "\n")];
  const out: string[] = [];
  let buf = "";
  chars.forEach((ch, i) => {
    buf += ch;
    const next = chars[i + 1];
    const ends = /[。！？!?\n]/.test(ch) || (ch === "." && (next === undefined || /\s/.test(next)));
    const moreMarks = next !== undefined && /[。！？!?]/.test(next);
    if (!ends || moreMarks || /\b(e\.g|i\.e|etc|vs)\.$/i.test(buf)) return;
    if (buf.trim()) out.push(buf.trim());
    buf = "";
  });
  if (buf.trim()) out.push(buf.trim());
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
