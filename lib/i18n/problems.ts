import type { SubmitProblem } from "@/lib/domain/annotation";
import { isMessageKey, type MessageRef } from "./index";

/**
 * What keeps a step or a trajectory from being submitted, in words, for the editor and the server's
 * 422 alike. Step numbers are 1-based. A problem code without a message yet (added in lib/domain
 * before its catalogue entry) still reads as a sentence naming the code.
 */
export function problemRef(code: string, detail?: string): MessageRef {
  const key = `problem.${code}`;
  return isMessageKey(key) ? { key, vars: { detail: detail ?? "" } } : { key: "submit.unknownProblem", vars: { code } };
}

export function submitProblemRef(p: SubmitProblem): MessageRef {
  if (p.code === "outcome.unset") return { key: "submit.needOutcome" };
  return {
    key: "submit.stepProblem",
    vars: { n: p.stepIndex + 1, problem: p.problems.map((code, i) => problemRef(code, p.details?.[i])) },
  };
}
