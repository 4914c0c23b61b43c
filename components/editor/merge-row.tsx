"use client";

import { useId } from "react";
import type { MergePick, MergeRow as MergeRowPlan } from "@/lib/domain/merge";
import { useT } from "@/lib/i18n/react";

/**
 * One field of a merge, the only way a merge row is drawn (a step's or the task settings'). A field
 * only one side changed shows what it merged to; a field both changed is a group of radios (mine,
 * theirs and, for text, a value written anew), none chosen until the person chooses. Arrow keys move
 * between the radios of a group, Tab to the next group.
 */
export function MergeRow({
  label,
  row,
  show,
  pick,
  onPick,
  canWrite,
}: {
  label: string;
  row: MergeRowPlan;
  show: (v: unknown) => string;
  pick: MergePick | undefined;
  onPick: (p: MergePick) => void;
  canWrite: boolean;
}) {
  const t = useT();
  const id = useId();
  if (row.settled !== null) {
    const isMine = row.settled === "mine";
    return (
      <div className="merge-row is-settled">
        <span className="merge-field">{label}</span>
        <span className="merge-label">{t(isMine ? "merge.settledMine" : "merge.settledTheirs")}</span>
        <span className="merge-value">{show(isMine ? row.mine : row.theirs)}</span>
      </div>
    );
  }
  const choice = pick?.pick;
  return (
    <fieldset className={`merge-row${pick ? "" : " is-open"}`}>
      <legend className="merge-field">{label}</legend>
      <div className="merge-options">
        <Choice
          group={id}
          value="mine"
          choice={choice}
          label={t("merge.keepMine")}
          text={show(row.mine)}
          onChoose={() => onPick({ pick: "mine" })}
        />
        <Choice
          group={id}
          value="theirs"
          choice={choice}
          label={t("merge.keepTheirs")}
          text={show(row.theirs)}
          onChoose={() => onPick({ pick: "theirs" })}
        />
        {canWrite && (
          <Choice
            group={id}
            value="typed"
            choice={choice}
            label={t("merge.write")}
            text={null}
            // Start from mine: theirs stands beside it to copy from.
            onChoose={() => onPick({ pick: "typed", value: String(row.mine ?? "") })}
          />
        )}
      </div>
      {pick?.pick === "typed" && (
        <textarea
          className="input merge-write"
          rows={2}
          aria-label={t("merge.writeLabel", { field: label })}
          value={pick.value}
          onChange={(e) => onPick({ pick: "typed", value: e.target.value })}
        />
      )}
    </fieldset>
  );
}

function Choice({
  group,
  value,
  choice,
  label,
  text,
  onChoose,
}: {
  group: string;
  value: MergePick["pick"];
  choice: MergePick["pick"] | undefined;
  label: string;
  text: string | null;
  onChoose: () => void;
}) {
  const textId = `${group}-${value}`;
  return (
    <label className={`merge-choice${choice === value ? " is-on" : ""}`}>
      <input
        type="radio"
        name={`merge-${group}`}
        value={value}
        checked={choice === value}
        onChange={onChoose}
        aria-label={label}
        aria-describedby={text === null ? undefined : textId}
      />
      <span className="merge-label">{label}</span>
      {text !== null && (
        <span className="merge-value" id={textId}>
          {text}
        </span>
      )}
    </label>
  );
}
