import { stepProblems } from "@/lib/domain/annotation";
import { stepFixSchema, type StepFix } from "@/lib/domain/review";
import { isTrainingTarget } from "@/lib/domain/trajectory";
import { dirtyKeys, TRAJECTORY_KEY, type EditorState } from "./editor";

/**
 * The review-fix mode's sync part. The annotator's editor saves each changed key as it goes
 * (lib/canvas/autosave.ts); a reviewer's changes instead wait on the page and go with the decision:
 * every step whose annotation differs from what the server gave is one fix, at the version the
 * reviewer started from (the decision answers 409 when the step moved on since). Trajectory-level
 * fields are not a step fix and are never collected. Points and boxes are in original pixels.
 */
export function collectFixes(s: Pick<EditorState, "doc" | "server" | "steps">): StepFix[] {
  const changed = new Set(dirtyKeys(s).filter((k) => k !== TRAJECTORY_KEY));
  return s.steps.flatMap((m) => {
    const value = s.doc.steps[m.id];
    const synced = s.server[m.id];
    return changed.has(m.id) && value && synced ? [{ ...value, stepId: m.id, version: synced.version }] : [];
  });
}

/**
 * The steps whose fix the decision would refuse, by step id: a field out of its limits, or (for a step that
 * is trained on) a blocking problem such as a point outside the target box, as the server checks it
 * (lib/server/review/decide.ts applyFixes). The page keeps "Fix and approve" off while any is left.
 */
export function invalidFixes(s: Pick<EditorState, "doc" | "server" | "steps">): string[] {
  const metaOf = new Map(s.steps.map((m) => [m.id, m]));
  return collectFixes(s)
    .filter((f) => {
      if (!stepFixSchema.safeParse(f).success) return true;
      const m = metaOf.get(f.stepId);
      if (!m || !isTrainingTarget(s.doc.trajectory, { index: m.index, verdict: f.verdict })) return false;
      return stepProblems(f, m.size).some((p) => p.isBlocking);
    })
    .map((f) => f.stepId);
}
