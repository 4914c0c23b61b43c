"use client";

import { useState } from "react";
import { TRAJECTORY_KEY, type Conflict, type Editor } from "@/lib/canvas/editor";
import {
  differingFields,
  getField,
  isSameValue,
  mergeAnnotations,
  TEXT_FIELDS,
  type MergeChoice,
  type MergeField,
  type StepAnnotation,
  type TrajectoryAnnotation,
} from "@/lib/domain/annotation";
import { describeToolCall, type ToolCall } from "@/lib/domain/tool-call";
import { useT } from "@/lib/i18n/react";
import type { MessageKey } from "@/lib/i18n";
import type { StepView } from "@/lib/domain/views";
import { useEditor } from "./use-editor";

const TRAJECTORY_FIELDS = ["outcome", "isDiscarded", "cutAfter"] as const;
type TrajectoryField = (typeof TRAJECTORY_FIELDS)[number];

/**
 * A save answered 409: someone saved this step since it was opened. Each differing field shows
 * mine and theirs; the defaults come from a three-way comparison with the version both started
 * from (a field only they changed takes theirs, only I changed takes mine, both changed text keeps both).
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

function defaultChoice(field: MergeField, mine: StepAnnotation, theirs: StepAnnotation, base: StepAnnotation): MergeChoice {
  const m = getField(mine, field);
  const th = getField(theirs, field);
  const b = getField(base, field);
  if (isSameValue(m, b)) return "theirs";
  if (isSameValue(th, b)) return "mine";
  return TEXT_FIELDS.includes(field) ? "both" : "mine";
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
  const fields = differingFields(mine, theirs);
  const [choices, setChoices] = useState<Partial<Record<MergeField, MergeChoice>>>(() =>
    Object.fromEntries(fields.map((f) => [f, defaultChoice(f, mine, theirs, base)])),
  );
  const save = () => {
    editor.goTo(stepNumber - 1);
    editor.resolveConflict(stepKey, mergeAnnotations(mine, theirs, choices));
  };
  return (
    <Shell title={t("merge.title", { n: stepNumber })} onSave={save}>
      {fields.length === 0 ? (
        <p>{t("merge.same")}</p>
      ) : (
        <table className="merge-table">
          <thead>
            <tr>
              <th>{t("merge.field")}</th>
              <th>{t("merge.mine")}</th>
              <th>{t("merge.theirs")}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f}>
                <th scope="row">{t(`merge.field.${f}` as MessageKey)}</th>
                <td>
                  <Choice
                    name={f}
                    value="mine"
                    choice={choices[f]}
                    onChange={(v) => setChoices({ ...choices, [f]: v })}
                    text={show(f, getField(mine, f))}
                    label={t("merge.keepMine")}
                  />
                </td>
                <td>
                  <Choice
                    name={f}
                    value="theirs"
                    choice={choices[f]}
                    onChange={(v) => setChoices({ ...choices, [f]: v })}
                    text={show(f, getField(theirs, f))}
                    label={t("merge.keepTheirs")}
                  />
                  {TEXT_FIELDS.includes(f) && (
                    <Choice
                      name={f}
                      value="both"
                      choice={choices[f]}
                      onChange={(v) => setChoices({ ...choices, [f]: v })}
                      text={null}
                      label={t("merge.keepBoth")}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Shell>
  );
}

function TrajectoryMerge({ editor, conflict, mine }: { editor: Editor; conflict: Conflict; mine: TrajectoryAnnotation }) {
  const t = useT();
  const theirs = conflict.theirs as TrajectoryAnnotation;
  const base = conflict.base as TrajectoryAnnotation;
  const fields = TRAJECTORY_FIELDS.filter((f) => !isSameValue(mine[f], theirs[f]));
  const [choices, setChoices] = useState<Partial<Record<TrajectoryField, MergeChoice>>>(() =>
    Object.fromEntries(fields.map((f) => [f, isSameValue(mine[f], base[f]) ? "theirs" : "mine"])),
  );
  const save = () => {
    const merged = { ...theirs };
    for (const f of fields) if (choices[f] !== "theirs") (merged as Record<TrajectoryField, unknown>)[f] = mine[f];
    editor.resolveConflict(TRAJECTORY_KEY, merged);
  };
  return (
    <Shell title={t("merge.titleTrajectory")} onSave={save}>
      <table className="merge-table">
        <tbody>
          {fields.map((f) => (
            <tr key={f}>
              <th scope="row">{t(`merge.field.${f}` as MessageKey)}</th>
              <td>
                <Choice
                  name={f}
                  value="mine"
                  choice={choices[f]}
                  onChange={(v) => setChoices({ ...choices, [f]: v })}
                  text={show(f, mine[f])}
                  label={t("merge.keepMine")}
                />
              </td>
              <td>
                <Choice
                  name={f}
                  value="theirs"
                  choice={choices[f]}
                  onChange={(v) => setChoices({ ...choices, [f]: v })}
                  text={show(f, theirs[f])}
                  label={t("merge.keepTheirs")}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Shell>
  );
}

function Choice({
  name,
  value,
  choice,
  onChange,
  text,
  label,
}: {
  name: string;
  value: MergeChoice;
  choice?: MergeChoice;
  onChange: (v: MergeChoice) => void;
  text: string | null;
  label: string;
}) {
  return (
    <label className={`merge-choice${choice === value ? " is-on" : ""}`}>
      <input
        type="radio"
        name={`merge-${name}`}
        value={value}
        checked={choice === value}
        onChange={() => onChange(value)}
        aria-label={`${label}: ${name}`}
      />
      <span className="merge-label">{label}</span>
      {text !== null && <span className="merge-value">{text}</span>}
    </label>
  );
}

function Shell({ title, onSave, children }: { title: string; onSave: () => void; children: React.ReactNode }) {
  const t = useT();
  return (
    <div className="overlay" data-modal-open>
      <div className="merge" role="dialog" aria-modal="true" aria-label={title}>
        <h2>{title}</h2>
        <p className="muted">{t("merge.explain")}</p>
        {children}
        <div className="merge-actions">
          <button type="button" className="btn btn-primary" onClick={onSave}>
            {t("merge.save")}
          </button>
        </div>
      </div>
    </div>
  );
}
