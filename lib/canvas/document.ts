import { convertToolCall, type StepAnnotation, type TrajectoryAnnotation } from "@/lib/domain/annotation";
import type { Box } from "@/lib/domain/geometry";
import { composeThought } from "@/lib/domain/thought";
import type { ActionType, ToolCall } from "@/lib/domain/tool-call";
import type { Verdict } from "@/lib/domain/trajectory";
import { clampIndex, TRAJECTORY_KEY, type Doc, type EngineCore } from "./editor-state";
import { diffKeys, record, redo as redoOf, undo as undoOf } from "./history";

/**
 * The editor's document part: every change of the annotation (step and trajectory fields), one undo
 * entry per change or per gesture (begun and committed by the tools), and undo/redo. A read-only
 * editor changes nothing here. Points and boxes in original screenshot pixels.
 */
export function createDocument({ store, view, meta, current }: EngineCore, now: () => number) {
  const get = store.get;
  /** Document before the gesture in progress; null when none. */
  let gestureStart: Doc | null = null;

  // ── Document changes and history ─────────────────────────────────────────────────────────────

  function flat(doc: Doc): Record<string, unknown> {
    return { [TRAJECTORY_KEY]: doc.trajectory, ...doc.steps };
  }

  function withValues(doc: Doc, values: Record<string, unknown>): Doc {
    let next = doc;
    for (const [k, v] of Object.entries(values)) {
      next =
        k === TRAJECTORY_KEY
          ? { ...next, trajectory: v as TrajectoryAnnotation }
          : { ...next, steps: { ...next.steps, [k]: v as StepAnnotation } };
    }
    return next;
  }

  function pushHistory(before: Doc, after: Doc, label: string, mergeKey?: string) {
    const b = flat(before);
    const a = flat(after);
    const keys = diffKeys(b, a);
    if (keys.length === 0) return;
    const pick = (src: Record<string, unknown>) => Object.fromEntries(keys.map((k) => [k, src[k]]));
    store.set((s) => ({
      history: record(s.history, { label, before: pick(b), after: pick(a), mergeKey, at: now(), stepIndex: s.stepIndex }),
    }));
  }

  /** One change outside a drag: its own history entry (or merged into the previous one by mergeKey). */
  function change(label: string, recipe: (doc: Doc) => Doc, mergeKey?: string) {
    if (get().isReadOnly) return;
    const before = get().doc;
    const after = recipe(before);
    if (after === before) return;
    store.set({ doc: after });
    if (!gestureStart) pushHistory(before, after, label, mergeKey);
  }

  function changeStep(label: string, fn: (a: StepAnnotation) => StepAnnotation, mergeKey?: string) {
    const id = meta().id;
    change(
      label,
      (doc) => {
        const prev = doc.steps[id]!;
        const next = asReviewFix(prev, fn(prev));
        return next === prev ? doc : { ...doc, steps: { ...doc.steps, [id]: next } };
      },
      mergeKey && `${mergeKey}:${id}`,
    );
  }

  /**
   * A reviewer's fix starts from what is there: opening it changes nothing, and the step becomes `corrected`
   * with the first real edit of a step judged good (or not judged), in that edit's own undo entry. A verdict
   * the reviewer sets is theirs.
   */
  function asReviewFix(prev: StepAnnotation, next: StepAnnotation): StepAnnotation {
    if (get().mode !== "review-fix" || next === prev || next.verdict !== prev.verdict) return next;
    return prev.verdict === "good" || prev.verdict === "unreviewed" ? { ...next, verdict: "corrected" } : next;
  }

  function changeTrajectory(label: string, patch: Partial<TrajectoryAnnotation>) {
    change(label, (doc) => ({ ...doc, trajectory: { ...doc.trajectory, ...patch } }));
  }

  function beginGesture() {
    gestureStart = get().doc;
  }

  function commitGesture(label: string) {
    const before = gestureStart;
    gestureStart = null;
    store.set({ drag: null });
    if (before) pushHistory(before, get().doc, label);
  }

  function cancelGesture() {
    const before = gestureStart;
    gestureStart = null;
    store.set(before ? { doc: before, drag: null } : { drag: null });
  }

  function applyEntry(values: Record<string, unknown>, stepIndex: number) {
    store.set((s) => ({ doc: withValues(s.doc, values), stepIndex: clampIndex(stepIndex, s.steps.length), isBoxSelected: false }));
    const m = meta();
    view.setImage(m.id, m.size);
  }

  // A read-only editor (the viewer, a handed-in task) keeps the history it had but never replays it.
  function undo() {
    if (get().isReadOnly) return;
    if (get().drag) return cancelGesture();
    const r = undoOf(get().history);
    if (!r) return;
    store.set({ history: r.history });
    applyEntry(r.entry.before, r.entry.stepIndex);
  }

  function redo() {
    if (get().isReadOnly || get().drag) return;
    const r = redoOf(get().history);
    if (!r) return;
    store.set({ history: r.history });
    applyEntry(r.entry.after, r.entry.stepIndex);
  }

  return {
    withValues,
    change,
    changeStep,
    beginGesture,
    commitGesture,
    cancelGesture,
    undo,
    redo,
    ...createFields({ store, meta, current }, changeStep, changeTrajectory),
  };
}

export type DocumentPart = ReturnType<typeof createDocument>;

/** The document's commands, field by field: each one change (one undo entry, or merged by its key) through the history above. */
function createFields(
  { store, meta, current }: Pick<EngineCore, "store" | "meta" | "current">,
  changeStep: (label: string, fn: (a: StepAnnotation) => StepAnnotation, mergeKey?: string) => void,
  changeTrajectory: (label: string, patch: Partial<TrajectoryAnnotation>) => void,
) {
  const get = store.get;
  // ── Step fields ──────────────────────────────────────────────────────────────────────────────

  type ThoughtPart = "state" | "nextAction" | "purpose";

  /** Editing a part recomposes the thought text, unless the text was edited by hand since. */
  function setThoughtPart(part: ThoughtPart, value: string) {
    changeStep(
      "history.thought",
      (a) => {
        const parts = { ...a.thought, [part]: value };
        const isComposed = a.thought.text === composeThought(a.thought);
        return { ...a, thought: { ...parts, text: isComposed ? composeThought(parts) : a.thought.text } };
      },
      `thought.${part}`,
    );
  }

  function setThoughtText(text: string) {
    changeStep("history.thought", (a) => ({ ...a, thought: { ...a.thought, text } }), "thought.text");
  }

  function recomposeThought() {
    changeStep("history.thought", (a) => ({ ...a, thought: { ...a.thought, text: composeThought(a.thought) } }));
  }

  function setClearAction(clearAction: string) {
    changeStep("history.clearAction", (a) => ({ ...a, clearAction }), "clearAction");
  }

  function setToolCall(toolCall: ToolCall, mergeKey?: string) {
    changeStep("history.toolCall", (a) => ({ ...a, toolCall }), mergeKey);
  }

  function setActionType(action: ActionType) {
    // The same type again is no change (and no undo step that undoes nothing).
    changeStep("history.actionType", (a) =>
      a.toolCall.action === action ? a : { ...a, toolCall: convertToolCall(a.toolCall, action, { box: a.box, size: meta().size }) },
    );
  }

  function setVerdict(verdict: Verdict) {
    changeStep("history.verdict", (a) => (a.verdict === verdict ? a : { ...a, verdict }));
  }

  function setBox(box: Box | null) {
    changeStep("history.box", (a) => ({ ...a, box }));
  }

  function deleteBox() {
    if (!current().box) return;
    setBox(null);
    store.set({ isBoxSelected: false });
  }

  /** Move the selected box by (dx, dy) original pixels, kept on the screen. Presses in a row are one undo step. */
  function nudgeBox(dx: number, dy: number) {
    const box = current().box;
    if (!box) return;
    const { width, height } = meta().size;
    const cx = Math.max(-box[0], Math.min(dx, width - box[2]));
    const cy = Math.max(-box[1], Math.min(dy, height - box[3]));
    if (cx === 0 && cy === 0) return;
    changeStep("history.nudge", (a) => ({ ...a, box: [box[0] + cx, box[1] + cy, box[2] + cx, box[3] + cy] }), "nudge");
  }

  // ── Trajectory fields ────────────────────────────────────────────────────────────────────────

  const setOutcome = (outcome: TrajectoryAnnotation["outcome"]) => changeTrajectory("history.outcome", { outcome });
  const setDiscarded = (isDiscarded: boolean) => changeTrajectory("history.discard", { isDiscarded });
  /** Cut after the current step, or remove the cut when it is already here. */
  function toggleCutHere() {
    const i = get().stepIndex;
    const isLast = i === get().steps.length - 1;
    const cut = get().doc.trajectory.cutAfter;
    changeTrajectory("history.cut", { cutAfter: cut === i || isLast ? null : i });
  }

  return {
    setThoughtPart,
    setThoughtText,
    recomposeThought,
    setClearAction,
    setToolCall,
    setActionType,
    setVerdict,
    setBox,
    deleteBox,
    nudgeBox,
    setOutcome,
    setDiscarded,
    toggleCutHere,
  };
}
