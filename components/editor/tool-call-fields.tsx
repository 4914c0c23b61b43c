"use client";

import { useState } from "react";
import type { Editor } from "@/lib/canvas/editor";
import { ACTION_TYPE_KEYS } from "@/lib/canvas/editor-shortcuts";
import type { StepProblem } from "@/lib/domain/annotation";
import type { Point, Size } from "@/lib/domain/geometry";
import {
  ACTION_TYPES,
  mobileUseCallSchema,
  SYSTEM_BUTTONS,
  TERMINATE_STATUSES,
  type ActionType,
  type StepToolCall,
  type ToolCall,
} from "@/lib/domain/tool-call";
import { useT } from "@/lib/i18n/react";
import { formatMobileUseCallPretty } from "@/lib/domain/tool-call";

type Props = { editor: Editor; call: StepToolCall; size: Size; problems: StepProblem[] };

const pretty = formatMobileUseCallPretty;

/** A half-typed number ("", "-", "1e") changes nothing; the field shows it until it reads as a number. */
const isNumber = (el: HTMLInputElement) => el.value !== "" && Number.isFinite(Number(el.value));

/** The wheel scrolls the panel; over a focused number field it would count the value up or down. */
const leaveOnWheel = (e: React.WheelEvent<HTMLInputElement>) => e.currentTarget.blur();

/** Action type plus exactly the fields that action needs, and the call as JSON (editable, validated by the domain schema). */
export function ToolCallFields({ editor, call, size, problems }: Props) {
  const t = useT();
  const set = (patch: Record<string, unknown>, field: string) => editor.setToolCall({ ...call, ...patch } as ToolCall, `toolCall.${field}`);
  return (
    <div className="tool-call">
      <label className="form-field inline">
        <span>{t("toolCall.action")}</span>
        <select value={call.action} onChange={(e) => editor.setActionType(e.target.value as ActionType)} aria-label={t("toolCall.action")}>
          {ACTION_TYPES.map((a, i) => (
            <option key={a} value={a}>
              {ACTION_TYPE_KEYS[i]} · {a}
            </option>
          ))}
        </select>
      </label>
      {"coordinate" in call && call.coordinate && (
        <PointField label="coordinate" value={call.coordinate} size={size} onChange={(coordinate) => set({ coordinate }, "coordinate")} />
      )}
      {call.action === "swipe" && (
        <PointField
          label="coordinate2"
          value={call.coordinate2}
          size={size}
          onChange={(coordinate2) => set({ coordinate2 }, "coordinate2")}
        />
      )}
      {"text" in call && (
        <label className="form-field inline">
          <span>text</span>
          <input type="text" value={call.text} onChange={(e) => set({ text: e.target.value }, "text")} aria-label="text" />
        </label>
      )}
      {"time" in call && (
        <label className="form-field inline">
          <span>time (s)</span>
          <input
            type="number"
            min={0}
            step={0.5}
            onWheel={leaveOnWheel}
            value={call.time}
            onChange={(e) => isNumber(e.target) && set({ time: Number(e.target.value) }, "time")}
            aria-label="time"
          />
        </label>
      )}
      {call.action === "system_button" && (
        <label className="form-field inline">
          <span>button</span>
          <select value={call.button} onChange={(e) => set({ button: e.target.value }, "button")} aria-label="button">
            {SYSTEM_BUTTONS.map((b) => (
              <option key={b}>{b}</option>
            ))}
          </select>
        </label>
      )}
      {call.action === "terminate" && (
        <label className="form-field inline">
          <span>status</span>
          <select value={call.status} onChange={(e) => set({ status: e.target.value }, "status")} aria-label="status">
            {TERMINATE_STATUSES.map((b) => (
              <option key={b}>{b}</option>
            ))}
          </select>
        </label>
      )}
      {problems.map((p) => (
        <span key={p.code} className={p.isBlocking ? "problem is-blocking" : "problem"}>
          {t(`problem.${p.code}`, { detail: p.detail ?? "" })}
        </span>
      ))}
      <JsonView editor={editor} call={call} />
    </div>
  );
}

function PointField({ label, value, size, onChange }: { label: string; value: Point; size: Size; onChange: (p: Point) => void }) {
  return (
    <div className="form-field inline point-field">
      <span>{label}</span>
      <input
        type="number"
        aria-label={`${label} x`}
        onWheel={leaveOnWheel}
        min={0}
        max={size.width}
        value={value[0]}
        onChange={(e) => isNumber(e.target) && onChange([Number(e.target.value), value[1]])}
      />
      <input
        type="number"
        aria-label={`${label} y`}
        onWheel={leaveOnWheel}
        min={0}
        max={size.height}
        value={value[1]}
        onChange={(e) => isNumber(e.target) && onChange([value[0], Number(e.target.value)])}
      />
    </div>
  );
}

/** The call as the model writes it; edits apply when they parse against the domain schema. */
function JsonView({ editor, call }: { editor: Editor; call: StepToolCall }) {
  const t = useT();
  const [text, setText] = useState(() => pretty(call));
  const [error, setError] = useState<string | null>(null);
  const [isEditing, setEditing] = useState(false);
  // A new call from elsewhere (another key, undo, another step) replaces the text unless it is being edited.
  // Leaving the field shows the call as it stands (a half-typed, invalid text is dropped).
  const [shown, setShown] = useState({ call, isEditing });
  if (shown.call !== call || shown.isEditing !== isEditing) {
    setShown({ call, isEditing });
    if (!isEditing) setText(pretty(call));
  }
  function apply(value: string) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return setError(t("toolCall.jsonSyntax"));
    }
    const r = mobileUseCallSchema.safeParse(parsed);
    if (!r.success) return setError(r.error.issues.map((i) => `${i.path.join(".") || "call"}: ${i.message}`).join("; "));
    setError(null);
    editor.setToolCall(r.data.arguments);
  }
  return (
    <details className="json-view">
      <summary>{t("toolCall.json")}</summary>
      <textarea
        className="code"
        rows={6}
        spellCheck={false}
        value={text}
        aria-label={t("toolCall.json")}
        onFocus={() => setEditing(true)}
        onBlur={() => setEditing(false)}
        onChange={(e) => {
          setText(e.target.value);
          apply(e.target.value);
        }}
      />
      {error && <span className="problem is-blocking">{error}</span>}
    </details>
  );
}
