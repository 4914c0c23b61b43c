"use client";

import { useState, type FormEvent } from "react";
import { STATUS_LABELS, TASK_STATUSES, type TaskStatus } from "@/lib/domain/status";
import { useQuery } from "@tanstack/react-query";
import { assignablePeopleQuery, type TrajectoryFilters } from "@/lib/queries/trajectories";

type Props = {
  filters: TrajectoryFilters;
  apps: string[];
  total: number | undefined;
  onChange: (f: Partial<TrajectoryFilters>) => void;
  canFilterAssignee?: boolean;
};

export function Filters({ filters, apps, total, onChange, canFilterAssignee = false }: Props) {
  const people = useQuery({ ...assignablePeopleQuery(), enabled: canFilterAssignee });
  const [q, setQ] = useState(filters.q ?? "");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onChange({ q: q.trim() || undefined });
  };
  // Keep a filtered app visible in the list even before the counts arrive.
  const appOptions = filters.app && !apps.includes(filters.app) ? [filters.app, ...apps] : apps;
  return (
    <form className="toolbar" role="search" onSubmit={submit}>
      <label className="field">
        <span>App</span>
        <select className="select" value={filters.app ?? ""} onChange={(e) => onChange({ app: e.target.value || undefined })}>
          <option value="">All apps</option>
          {appOptions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Status</span>
        <select
          className="select"
          value={filters.status ?? ""}
          onChange={(e) => onChange({ status: (e.target.value || undefined) as TaskStatus | undefined })}
        >
          <option value="">All statuses</option>
          {TASK_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      {canFilterAssignee && (
        <label className="field">
          <span>Assignee</span>
          <select className="select" value={filters.assignee ?? ""} onChange={(e) => onChange({ assignee: e.target.value || undefined })}>
            <option value="">Anyone</option>
            <option value="none">Unassigned</option>
            {people.data?.people.map((p) => (
              <option key={p.email} value={p.email}>
                {p.email}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="field">
        <span>Instruction contains</span>
        <input className="input grow" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Search instructions…" />
      </label>
      <button className="btn" type="submit">
        Search
      </button>
      <span className="count" role="status" aria-label="Matching trajectories">
        {total === undefined ? "" : `${total.toLocaleString("en-US")} matching`}
      </span>
    </form>
  );
}
