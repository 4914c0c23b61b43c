"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { PrefillAction } from "@/components/admin/model-prefill";
import { ErrorBox } from "@/components/ui/states";
import type { TrajectoryRow } from "@/lib/domain/views";
import { useFormat, useT } from "@/lib/i18n/react";
import { assignablePeopleQuery, assignTrajectories, trajectoryKeys } from "@/lib/queries/trajectories";
import { QualityActions } from "./quality-actions";

/** For admins: give the selected trajectories to a person or back to the pool, pre-annotate them, overlap them or mark them as gold. */
export function AssignBar({ selected: rows, onDone }: { selected: TrajectoryRow[]; onDone: () => void }) {
  const selected = rows.map((r) => r.id);
  const t = useT();
  const nf = useFormat().number;
  const client = useQueryClient();
  const people = useQuery(assignablePeopleQuery());
  const [to, setTo] = useState("");
  const [skipDuplicates, setSkipDuplicates] = useState(false);
  const assign = useMutation({
    // Skipping applies to giving work to a person; returning it to the pool takes every selected row back.
    mutationFn: (assignee: string | null) => assignTrajectories(selected, assignee, assignee !== null && skipDuplicates),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: trajectoryKeys.all });
      onDone();
    },
  });
  return (
    <div className="assign-bar" role="region" aria-label={t("list.assign.region")}>
      <span className="assign-count">
        {selected.length > 0 ? t("list.assign.selected", { n: nf(selected.length) }) : t("list.assign.none")}
      </span>
      <label className="field">
        <span>{t("list.assign.to")}</span>
        <select className="select" value={to} onChange={(e) => setTo(e.target.value)} aria-label={t("list.assign.to")}>
          <option value="">{t("list.assign.choose")}</option>
          {people.data?.people.map((p) => (
            <option key={p.email} value={p.email} data-i18n="data">
              {p.name} ({p.email})
            </option>
          ))}
        </select>
      </label>
      <label className="check">
        <input type="checkbox" checked={skipDuplicates} onChange={(e) => setSkipDuplicates(e.target.checked)} />
        <span>{t("list.assign.skipDuplicates")}</span>
      </label>
      <button
        type="button"
        className="btn btn-primary"
        disabled={!to || selected.length === 0 || assign.isPending}
        onClick={() => assign.mutate(to)}
      >
        {t("list.assign.submit")}
      </button>
      <button type="button" className="btn" disabled={selected.length === 0 || assign.isPending} onClick={() => assign.mutate(null)}>
        {t("list.assign.pool")}
      </button>
      <PrefillAction selected={selected} />
      {assign.isSuccess && (
        <span role="status">
          {assign.variables === null
            ? t("list.assign.returned", { n: nf(assign.data.assigned) })
            : assign.data.skipped
              ? t("list.assign.doneSkipped", { n: nf(assign.data.assigned), skipped: nf(assign.data.skipped) })
              : t("list.assign.done", { n: nf(assign.data.assigned) })}
        </span>
      )}
      {assign.isError && <ErrorBox error={assign.error} />}
      <QualityActions selected={rows} onDone={onDone} />
    </div>
  );
}
