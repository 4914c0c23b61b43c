"use client";

import type { Editor, EditorState } from "@/lib/canvas/editor";
import type { RewardPreview } from "@/lib/canvas/reward-preview";
import { kbdHint, withKbd, type Shortcut } from "@/lib/canvas/shortcuts";
import type { StepAnnotation, StepProblem } from "@/lib/domain/annotation";
import { formatMobileUseCall } from "@/lib/domain/tool-call";
import { VERDICTS } from "@/lib/domain/trajectory";
import type { StepView } from "@/lib/domain/views";
import { useT } from "@/lib/i18n/react";
import { Kbd } from "./kbd";
import { ToolCallFields } from "./tool-call-fields";
import { ScissorsIcon } from "@/components/ui/icons";

// The step form's sections, in the order the form shows them. Each gets the editor, the page's
// shortcut registry and its own problems from StepForm, which holds all the state they show.

/** The thought's first field: the "focus the thought" key moves here. */
export const THOUGHT_STATE_ID = "thought-state";

type Shortcuts = Shortcut<EditorState>[];
/** The problems shown for one field (and the fields under it). */
export type ProblemsOf = (field: string) => StepProblem[];

export function FormTitle({
  editor,
  shortcuts,
  step,
  stepCount,
  isAfterCut,
  isCutHere,
  isReviewFix,
}: {
  editor: Editor;
  shortcuts: Shortcuts;
  step: StepView;
  stepCount: number;
  isAfterCut: boolean;
  isCutHere: boolean;
  isReviewFix: boolean;
}) {
  const t = useT();
  return (
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
          <ScissorsIcon /> {isCutHere ? t("editor.uncut") : t("editor.cutAfter")}
        </button>
      )}
    </div>
  );
}

export function VerdictSection({
  editor,
  shortcuts,
  verdict,
  isAdvancing,
  onAdvancingChange,
  problems,
}: {
  editor: Editor;
  shortcuts: Shortcuts;
  verdict: StepAnnotation["verdict"];
  isAdvancing: boolean;
  onAdvancingChange: (isAdvancing: boolean) => void;
  problems: StepProblem[];
}) {
  const t = useT();
  return (
    <section className="form-section" aria-label={t("editor.verdict")}>
      <h3>{t("editor.verdict")}</h3>
      <div className="segmented verdicts" role="radiogroup" aria-label={t("editor.verdict")}>
        {VERDICTS.filter((v) => v !== "unreviewed").map((v) => (
          <label
            key={v}
            className={verdict === v ? `is-on is-${v}` : undefined}
            title={withKbd(t(`verdict.${v}.hint`), shortcuts, `verdict.${v}`)}
          >
            <input type="radio" name="verdict" value={v} checked={verdict === v} onChange={() => editor.setVerdict(v)} />
            {t(`verdict.${v}`)} <Kbd keys={kbdHint(shortcuts, `verdict.${v}`)} />
          </label>
        ))}
      </div>
      <label className="verdict-advance" title={t("shortcut.verdictAdvanceHint")}>
        <input type="checkbox" checked={isAdvancing} onChange={(e) => onAdvancingChange(e.target.checked)} />
        {t("shortcut.verdictAdvance")}
      </label>
      <Problems list={problems} />
    </section>
  );
}

export function ThoughtSection({
  editor,
  shortcuts,
  thought,
  isComposed,
  of,
}: {
  editor: Editor;
  shortcuts: Shortcuts;
  thought: StepAnnotation["thought"];
  isComposed: boolean;
  of: ProblemsOf;
}) {
  const t = useT();
  return (
    <section className="form-section" aria-label={t("editor.thought")}>
      <h3>
        {t("editor.thought")} <Kbd keys={kbdHint(shortcuts, "thought.focus")} />
      </h3>
      <Field label={t("thought.state")} problems={of("thought.state")}>
        <textarea
          id={THOUGHT_STATE_ID}
          rows={2}
          value={thought.state}
          onChange={(e) => editor.setThoughtPart("state", e.target.value)}
          placeholder={t("thought.statePlaceholder")}
        />
      </Field>
      <Field label={t("thought.nextAction")} problems={of("thought.nextAction")}>
        <textarea
          rows={2}
          value={thought.nextAction}
          onChange={(e) => editor.setThoughtPart("nextAction", e.target.value)}
          placeholder={t("thought.nextActionPlaceholder")}
        />
      </Field>
      <Field label={t("thought.purpose")} problems={of("thought.purpose")}>
        <textarea
          rows={2}
          value={thought.purpose}
          onChange={(e) => editor.setThoughtPart("purpose", e.target.value)}
          placeholder={t("thought.purposePlaceholder")}
        />
      </Field>
      <Field label={t("thought.composed")} problems={of("thought.text")}>
        <textarea rows={3} className="composed-input" value={thought.text} onChange={(e) => editor.setThoughtText(e.target.value)} />
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
  );
}

export function ClearActionSection({ editor, clearAction, problems }: { editor: Editor; clearAction: string; problems: StepProblem[] }) {
  const t = useT();
  return (
    <section className="form-section" aria-label={t("editor.clearAction")}>
      <Field label={t("editor.clearAction")} problems={problems}>
        <input
          type="text"
          value={clearAction}
          onChange={(e) => editor.setClearAction(e.target.value)}
          placeholder={t("editor.clearActionPlaceholder")}
        />
      </Field>
    </section>
  );
}

export function ToolCallSection({
  editor,
  annotation: a,
  size,
  of,
}: {
  editor: Editor;
  annotation: StepAnnotation;
  size: StepView["screenshot"];
  of: ProblemsOf;
}) {
  const t = useT();
  return (
    <section className="form-section" aria-label={t("editor.toolCall")}>
      <h3>{t("editor.toolCall")}</h3>
      <ToolCallFields editor={editor} call={a.toolCall} size={size} problems={of("toolCall")} />
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
  );
}

export function ModelOutputSection({ original }: { original: StepView["original"] }) {
  const t = useT();
  return (
    <section className="form-section" aria-label={t("editor.modelOutput")}>
      <h3>{t("editor.modelOutput")}</h3>
      {original.thought && (
        <p className="small original-text" data-i18n="data">
          {original.thought}
        </p>
      )}
      {original.clearAction && (
        <p className="small original-text" data-i18n="data">
          {original.clearAction}
        </p>
      )}
      <pre className="code wrap original-call">{formatMobileUseCall(original.toolCall)}</pre>
    </section>
  );
}

export function RewardSection({ preview }: { preview: RewardPreview | null }) {
  const t = useT();
  return (
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
