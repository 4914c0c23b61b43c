"use client";

import { useState } from "react";
import { OVERLAP_COPIES } from "@/lib/domain/overlap";
import type { TrajectoryRow } from "@/lib/domain/views";
import { errorMessage } from "@/components/ui/states";
import { useFormat, useT } from "@/lib/i18n/react";
import { useMarkGold } from "@/lib/queries/gold";
import { useOverlap } from "@/lib/queries/overlap";
import { GiveToPeople } from "./give-to-people";

/** What the last action answered, kept until the next one. */
type Outcome =
  | { kind: "overlap"; people: number; copies: number }
  | { kind: "gold"; isGold: boolean; changed: number }
  | { kind: "error"; error: unknown };

/**
 * The selection bar's quality actions (issue 26, admins): give the selected trajectories to 2 or 3
 * people independently (POST /api/overlap), the copies waiting in the pool or given at once to people
 * the admin chooses (GiveToPeople), mark approved ones as gold tasks or unmark them (POST
 * /api/gold). Their note line is always there, one line high, so a tick never moves the table: it says
 * why the selection cannot be gold, else what the last action did or why it failed.
 */
export function QualityActions({ selected, onDone }: { selected: TrajectoryRow[]; onDone: () => void }) {
  const t = useT();
  const nf = useFormat().number;
  const overlap = useOverlap();
  const gold = useMarkGold();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const ids = selected.map((r) => r.id);
  const notApproved = selected.filter((r) => r.status !== "approved").length;
  const isBusy = overlap.isPending || gold.isPending;
  const onError = (error: unknown) => setOutcome({ kind: "error", error });

  const giveTo = (people: (typeof OVERLAP_COPIES)[number]) =>
    overlap.mutate(
      { trajectoryIds: ids, copies: people },
      {
        onSuccess: (r) => {
          setOutcome({ kind: "overlap", people, copies: r.overlapped.reduce((n, o) => n + o.copies.length, 0) });
          onDone();
        },
        onError,
      },
    );
  const markGold = (isGold: boolean) =>
    gold.mutate(
      { trajectoryIds: ids, isGold },
      {
        onSuccess: (r) => {
          setOutcome({ kind: "gold", isGold, changed: r.changed });
          onDone();
        },
        onError,
      },
    );

  const note =
    notApproved > 0 ? (
      <p className="quality-note muted">{t("list.quality.goldOnlyApproved", { n: nf(notApproved) })}</p>
    ) : outcome?.kind === "error" ? (
      <p className="quality-note is-error" role="alert">
        {errorMessage(outcome.error, t)}
      </p>
    ) : (
      <p className="quality-note" role="status">
        {outcome?.kind === "overlap"
          ? t("list.quality.overlapDone", { people: nf(outcome.people), copies: nf(outcome.copies) })
          : outcome?.kind === "gold"
            ? t(outcome.isGold ? "list.quality.marked" : "list.quality.unmarked", { n: nf(outcome.changed) })
            : null}
      </p>
    );

  return (
    <>
      <div className="quality-actions" role="group" aria-label={t("list.quality.group")}>
        {OVERLAP_COPIES.map((n) => (
          <button
            key={n}
            type="button"
            className="btn"
            title={t("list.quality.overlapTitle", { n: nf(n) })}
            disabled={selected.length === 0 || isBusy}
            onClick={() => giveTo(n)}
          >
            {t("list.quality.overlap", { n: nf(n) })}
          </button>
        ))}
        <GiveToPeople
          ids={ids}
          disabled={selected.length === 0 || isBusy}
          onMade={(people, copies) => {
            setOutcome({ kind: "overlap", people, copies });
            onDone();
          }}
          onError={onError}
        />
        <button type="button" className="btn" disabled={selected.length === 0 || notApproved > 0 || isBusy} onClick={() => markGold(true)}>
          {t("list.quality.markGold")}
        </button>
        <button type="button" className="btn" disabled={!selected.some((r) => r.isGold) || isBusy} onClick={() => markGold(false)}>
          {t("list.quality.unmarkGold")}
        </button>
      </div>
      {note}
    </>
  );
}
