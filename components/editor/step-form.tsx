"use client";

import { useMemo } from "react";
import { kbdHint, withKbd } from "@/lib/canvas/shortcuts";
import { rewardPreview } from "@/lib/canvas/reward-preview";
import { stepProblems, type StepProblem } from "@/lib/domain/annotation";
import { composeThought } from "@/lib/domain/thought";
import { formatMobileUseCall } from "@/lib/domain/tool-call";
import { VERDICTS } from "@/lib/domain/trajectory";
import { useT } from "@/lib/i18n/react";
import { annotationOf } from "@/lib/domain/annotation";
import type { StepView } from "@/lib/domain/views";
import { usePersonSetting } from "@/components/ui/person-settings";
import { ToolCallFields } from "./tool-call-fields";
import { useEditorContext } from "./editor-context";
import { Kbd } from "./kbd";
import { useCurrentAnnotation, useEditor } from "./use-editor";

/** The editor and its registry come from the page's EditorProvider. */
type Props = {
  step: StepView;
  /** The person pressed Submit: every open problem shows, "choose a verdict" included. */
  isSubmitAttempted: boolean;
};

/**
 * Which of a step's problems to show. "Choose a verdict" waits until the person has worked on the
 * step (it differs from what was loaded, or was saved before) or tried to submit. Steps after the
 * cut are not trained on and block nothing: no verdict needed, the rest shown as warnings.
 */
export function shownProblems(
  all: StepProblem[],
  opts: { isAfterCut: boolean; isTouched: boolean; isSubmitAttempted: boolean },
): StepProblem[] {
  return all
    .filter((p) => p.code !== "verdict.unset" || (!opts.isAfterCut && (opts.isTouched || opts.isSubmitAttempted)))
    .map((p) => (opts.isAfterCut ? { ...p, isBlocking: false } : p));
}

/** The thought's first field: the "focus the thought" key moves here. */
export const THOUGHT_STATE_ID = "thought-state";

export function StepForm({ step, isSubmitAttempted }: Props) {
  const t = useT();
  const { editor, shortcuts } = useEditorContext();
  // A review fix corrects steps only: where the trajectory is cut is the annotator's (and not a step fix).
  const isReviewFix = useEditor(editor, (s) => s.mode === "review-fix");
  const a = useCurrentAnnotation(editor);
  const isReadOnly = useEditor(editor, (s) => s.isReadOnly);
  const cutAfter = useEditor(editor, (s) => s.doc.trajectory.cutAfter);
  const stepCount = useEditor(editor, (s) => s.steps.length);
  const loaded = useEditor(editor, (s) => s.server[step.id]);
  const [isAdvancing, setAdvancing] = usePersonSetting("verdictAdvances", false);
  const isAfterCut = cutAfter !== null && step.index > cutAfter;
  const isTouched =
    step.version > 1 || (loaded !== undefined && loaded.version > step.version) || JSON.stringify(a) !== JSON.stringify(annotationOf(step));
  const problems = useMemo(
    () => shownProblems(stepProblems(a, step.screenshot), { isAfterCut, isTouched, isSubmitAttempted }),
    [a, step.screenshot, isAfterCut, isTouched, isSubmitAttempted],
  );
  const preview = useMemo(() => rewardPreview(step.original, a, step.candidateBoxes, step.screenshot), [a, step]);
  const isComposed = a.thought.text === composeThought(a.thought);
  const isCutHere = cutAfter === step.index;
  const of = (field: string) => problems.filter((p) => p.field === field || p.field.startsWith(`${field}.`));

  return (
    <aside className="step-form" aria-label={t("editor.stepDetails")}>
      <fieldset disabled={isReadOnly} className="form-body">
        <div className="form-section form-title">
          <h2>{t("editor.stepOf", { n: step.index + 1, count: stepCount })}</h2>
          {isAfterCut && <span className="badge badge-cut">{t("editor.afterCut")}</span>}
          {!isReviewFix && (
            <button
              type="button"
              className={`btn btn-small${isCutHere ? " is-on" : ""}`}
              onClick={editor.toggleCutHere}
              disabled={step.index === stepCount - 1 && !isCutHere}
              title={withKbd(t("editor.cutHint"), shortcuts, "trajectory.cut")}
              aria-pressed={isCutHere}
            >
              ✂ {isCutHere ? t("editor.uncut") : t("editor.cutAfter")}
            </button>
          )}
        </div>

        <section className="form-section" aria-label={t("editor.verdict")}>
          <h3>{t("editor.verdict")}</h3>
          <div className="segmented verdicts" role="radiogroup" aria-label={t("editor.verdict")}>
            {VERDICTS.filter((v) => v !== "unreviewed").map((v) => (
              <label
                key={v}
                className={a.verdict === v ? `is-on is-${v}` : undefined}
                title={withKbd(t(`verdict.${v}.hint`), shortcuts, `verdict.${v}`)}
              >
                <input type="radio" name="verdict" value={v} checked={a.verdict === v} onChange={() => editor.setVerdict(v)} />
                {t(`verdict.${v}`)} <Kbd keys={kbdHint(shortcuts, `verdict.${v}`)} />
              </label>
            ))}
          </div>
          <label className="verdict-advance" title={t("shortcut.verdictAdvanceHint")}>
            <input type="checkbox" checked={isAdvancing} onChange={(e) => setAdvancing(e.target.checked)} />
            {t("shortcut.verdictAdvance")}
          </label>
          <Problems list={of("verdict")} />
        </section>

        <section className="form-section" aria-label={t("editor.thought")}>
          <h3>
            {t("editor.thought")} <Kbd keys={kbdHint(shortcuts, "thought.focus")} />
          </h3>
          <Field label={t("thought.state")} problems={of("thought.state")}>
            <textarea
              id={THOUGHT_STATE_ID}
              rows={2}
              value={a.thought.state}
              onChange={(e) => editor.setThoughtPart("state", e.target.value)}
              placeholder={t("thought.statePlaceholder")}
            />
          </Field>
          <Field label={t("thought.nextAction")} problems={of("thought.nextAction")}>
            <textarea
              rows={2}
              value={a.thought.nextAction}
              onChange={(e) => editor.setThoughtPart("nextAction", e.target.value)}
              placeholder={t("thought.nextActionPlaceholder")}
            />
          </Field>
          <Field label={t("thought.purpose")} problems={of("thought.purpose")}>
            <textarea
              rows={2}
              value={a.thought.purpose}
              onChange={(e) => editor.setThoughtPart("purpose", e.target.value)}
              placeholder={t("thought.purposePlaceholder")}
            />
          </Field>
          <Field label={t("thought.composed")} problems={of("thought.text")}>
            <textarea rows={3} className="composed-input" value={a.thought.text} onChange={(e) => editor.setThoughtText(e.target.value)} />
          </Field>
          {!isComposed && (
            <p className="hint">
              {t("thought.diverged")}{" "}
              <button type="button" className="link-btn" onClick={editor.recomposeThought}>
                {t("thought.recompose")}
              </button>
            </p>
          )}
        </section>

        <section className="form-section" aria-label={t("editor.clearAction")}>
          <Field label={t("editor.clearAction")} problems={of("clearAction")}>
            <input
              type="text"
              value={a.clearAction}
              onChange={(e) => editor.setClearAction(e.target.value)}
              placeholder={t("editor.clearActionPlaceholder")}
            />
          </Field>
        </section>

        <section className="form-section" aria-label={t("editor.toolCall")}>
          <h3>{t("editor.toolCall")}</h3>
          <ToolCallFields editor={editor} call={a.toolCall} size={step.screenshot} problems={of("toolCall")} />
          <div className="box-row">
            <span className="muted">{t("editor.box")}</span>
            {a.box ? (
              <>
                <code>[{a.box.map((n) => Math.round(n)).join(", ")}]</code>
                <button type="button" className="link-btn" onClick={editor.deleteBox}>
                  {t("editor.deleteBox")}
                </button>
              </>
            ) : (
              <span className="muted">{t("editor.noBox")}</span>
            )}
          </div>
          <Problems list={of("box")} />
        </section>

        <section className="form-section" aria-label={t("editor.modelOutput")}>
          <h3>{t("editor.modelOutput")}</h3>
          {step.original.thought && (
            <p className="small original-text" data-i18n="data">
              {step.original.thought}
            </p>
          )}
          {step.original.clearAction && (
            <p className="small original-text" data-i18n="data">
              {step.original.clearAction}
            </p>
          )}
          <pre className="code wrap original-call">{formatMobileUseCall(step.original.toolCall)}</pre>
        </section>

        <section className="form-section" aria-label={t("reward.title")}>
          <h3 title={t("reward.hint")}>{t("reward.title")}</h3>
          {preview ? (
            <dl className="reward">
              <dt>Mobile-R1</dt>
              <dd className={preview.mobileR1 === 1 ? "is-hit" : "is-miss"} data-testid="reward-mobile-r1">
                {preview.mobileR1}{" "}
                {preview.hit !== null && <span className="muted">({preview.hit ? t("reward.inBox") : t("reward.outOfBox")})</span>}
              </dd>
              <dt>UI-S1</dt>
              <dd className={preview.uiS1Action === 1 ? "is-hit" : "is-miss"} data-testid="reward-ui-s1">
                {preview.uiS1.toFixed(2)}{" "}
                <span className="muted">
                  ({t("reward.action")} {preview.uiS1Action})
                </span>
              </dd>
            </dl>
          ) : (
            <p className="muted small">{t("reward.unavailable")}</p>
          )}
        </section>
      </fieldset>
    </aside>
  );
}

function Field({ label, problems, children }: { label: string; problems: StepProblem[]; children: React.ReactNode }) {
  return (
    <label className={`form-field${problems.some((p) => p.isBlocking) ? " has-error" : problems.length ? " has-warning" : ""}`}>
      <span>{label}</span>
      {children}
      <Problems list={problems} />
    </label>
  );
}

function Problems({ list }: { list: StepProblem[] }) {
  const t = useT();
  if (list.length === 0) return null;
  return (
    <span className="problems">
      {list.map((p) => (
        <span key={p.code} className={p.isBlocking ? "problem is-blocking" : "problem"}>
          {t(`problem.${p.code}`, { detail: p.detail ?? "" })}
        </span>
      ))}
    </span>
  );
}
