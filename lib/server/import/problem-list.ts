// The problems a failed import answers with: the first MAX_PROBLEMS, clipped, and an exact count.
import type { ImportProblem, ProblemParams } from "@/lib/domain/problems";
import { MAX_PROBLEM_CHARS, MAX_PROBLEMS } from "./options";

const clipped = (s: string) => (s.length > MAX_PROBLEM_CHARS ? `${s.slice(0, MAX_PROBLEM_CHARS)}…` : s);
/** A problem's parameters as kept: each text as long as a message may be. */
const clipParams = (params: ProblemParams): ProblemParams =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? clipped(v) : v]));

/** The first MAX_PROBLEMS problems, and an exact count of all. */
export class ProblemList {
  readonly kept: ImportProblem[] = [];
  count = 0;
  add(problems: ImportProblem[]): void {
    for (const p of problems) {
      this.count += 1;
      if (this.kept.length < MAX_PROBLEMS) {
        this.kept.push({ ...p, message: clipped(p.message), ...(p.params ? { params: clipParams(p.params) } : {}) });
      }
    }
  }
}
