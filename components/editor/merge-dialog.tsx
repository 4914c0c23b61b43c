"use client";

import { useEffect, useRef, useState } from "react";
import { TRAJECTORY_KEY, type Conflict, type Editor } from "@/lib/canvas/editor";
import type { StepAnnotation, TrajectoryAnnotation } from "@/lib/domain/annotation";
import {
  isThoughtRecomposed,
  mergedThought,
  openConflicts,
  planStepMerge,
  planTrajectoryMerge,
  resolveStepMerge,
  resolveTrajectoryMerge,
  TYPED_MERGE_FIELDS,
  type MergePick,
  type MergePicks,
  type MergeRow as MergeRowPlan,
} from "@/lib/domain/merge";
import { describeToolCall, type ToolCall } from "@/lib/domain/tool-call";
import { useT } from "@/lib/i18n/react";
import type { MessageKey } from "@/lib/i18n";
import type { StepView } from "@/lib/domain/views";
import { MergeRow } from "./merge-row";
import { useEditor } from "./use-editor";

/**
 * A save answered 409: someone saved this step since it was opened. The three-way merge
 * (lib/domain/merge.ts) settles what only one side changed; each field both changed is a question
 * with nothing chosen, and Save waits until every one is answered. The thought's text is never a
 * question: it is composed from the chosen parts.
 */
export function MergeDialog({ editor, steps }: { editor: Editor; steps: StepView[] }) {
  const conflicts = useEditor(editor, (s) => s.conflicts);
  const doc = useEditor(editor, (s) => s.doc);
  const key = Object.keys(conflicts)[0];
  if (!key) return null;
  const c = conflicts[key]!;
  if (key === TRAJECTORY_KEY) return <TrajectoryMerge key={`${key}:${c.version}`} editor={editor} conflict={c} mine={doc.trajectory} />;
  const step = steps.find((s) => s.id === key);
  return (
    <StepMerge
      key={`${key}:${c.version}`}
      editor={editor}
      stepKey={key}
      stepNumber={(step?.index ?? 0) + 1}
      conflict={c}
      mine={doc.steps[key]!}
    />
  );
}

function show(field: string, v: unknown): string {
  if (v === null || v === undefined || v === "") return "—";
  if (field === "toolCall") return describeToolCall(v as ToolCall);
  if (Array.isArray(v)) return `[${v.map((n) => Math.round(Number(n))).join(", ")}]`;
  return String(v);
}

function StepMerge({
  editor,
  stepKey,
  stepNumber,
  conflict,
  mine,
}: {
  editor: Editor;
  stepKey: string;
  stepNumber: number;
  conflict: Conflict;
  mine: StepAnnotation;
}) {
  const t = useT();
  const theirs = conflict.theirs as StepAnnotation;
  const base = conflict.base as StepAnnotation;
  const [picks, setPicks] = useState<MergePicks>({});
  const rows = planStepMerge(base, mine, theirs);
  const merged = resolveStepMerge(base, mine, theirs, picks);
  const save = () => {
    if (!merged) return;
    editor.goTo(stepNumber - 1);
    editor.resolveConflict(stepKey, merged);
  };
  const thought = isThoughtRecomposed(base, mine, theirs) ? mergedThought(base, mine, theirs, picks) : undefined;
  return (
    <Shell title={t("merge.title", { n: stepNumber })} rows={rows} picks={picks} onPicks={setPicks} onSave={save}>
      {thought !== undefined && (
        <div className="merge-row is-settled">
          <span className="merge-field">{t("merge.thoughtText")}</span>
          <span className={thought ? "merge-value" : "muted"}>{thought ? thought.text : t("merge.thoughtWaiting")}</span>
        </div>
      )}
    </Shell>
  );
}

function TrajectoryMerge({ editor, conflict, mine }: { editor: Editor; conflict: Conflict; mine: TrajectoryAnnotation }) {
  const t = useT();
  const theirs = conflict.theirs as TrajectoryAnnotation;
  const base = conflict.base as TrajectoryAnnotation;
  const [picks, setPicks] = useState<MergePicks>({});
  const rows = planTrajectoryMerge(base, mine, theirs);
  const save = () => {
    const merged = resolveTrajectoryMerge(base, mine, theirs, picks);
    if (merged) editor.resolveConflict(TRAJECTORY_KEY, merged);
  };
  return <Shell title={t("merge.titleTrajectory")} rows={rows} picks={picks} onPicks={setPicks} onSave={save} />;
}

/** The dialog around the rows: the changed fields, how many questions are left, and Save (disabled until none). */
function Shell({
  title,
  rows,
  picks,
  onPicks,
  onSave,
  children,
}: {
  title: string;
  rows: MergeRowPlan[];
  picks: MergePicks;
  onPicks: (p: MergePicks) => void;
  onSave: () => void;
  children?: React.ReactNode;
}) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  // Keyboard first: focus lands on the first question (or Save when there is none).
  useEffect(() => ref.current?.querySelector<HTMLElement>("input, button:not(:disabled)")?.focus(), []);
  const changed = rows.filter((r) => r.settled !== "same");
  const questions = changed.filter((r) => r.settled === null);
  const left = openConflicts(rows, picks).length;
  return (
    <div className="overlay" data-modal-open>
      <div className="merge" role="dialog" aria-modal="true" aria-label={title} ref={ref}>
        <h2>{title}</h2>
        <p className="muted">{t("merge.explain")}</p>
        {changed.length === 0 && <p>{t("merge.same")}</p>}
        {changed.length > 0 && questions.length === 0 && <p>{t("merge.nothingToChoose")}</p>}
        <div className="merge-rows">
          {changed.map((row) => (
            <MergeRow
              key={row.field}
              label={t(`merge.field.${row.field}` as MessageKey)}
              row={row}
              show={(v) => show(row.field, v)}
              pick={picks[row.field]}
              onPick={(p: MergePick) => onPicks({ ...picks, [row.field]: p })}
              canWrite={TYPED_MERGE_FIELDS.includes(row.field)}
            />
          ))}
          {children}
        </div>
        <div className="merge-actions">
          {questions.length > 0 && (
            <p role="status" className={left > 0 ? "merge-left" : "muted"}>
              {left > 0 ? t("merge.left", { count: left }) : t("merge.allChosen")}
            </p>
          )}
          <button type="button" className="btn btn-primary" onClick={onSave} disabled={left > 0}>
            {t("merge.save")}
          </button>
        </div>
      </div>
    </div>
  );
}
