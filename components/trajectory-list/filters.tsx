"use client";

import { useState, type FormEvent } from "react";
import { TASK_STATUSES, type TaskStatus } from "@/lib/domain/status";
import { useQuery } from "@tanstack/react-query";
import type { TrajectoryFilters } from "@/lib/domain/views";
import { assignablePeopleQuery } from "@/lib/queries/trajectories";
import { useFormat, useT } from "@/lib/i18n/react";

type Props = {
  filters: TrajectoryFilters;
  apps: string[];
  /** Project names to offer (those with trajectories the person may see). */
  projects: string[];
  total: number | undefined;
  onChange: (f: Partial<TrajectoryFilters>) => void;
  canFilterAssignee?: boolean;
  /** Reviewers and admins: whether people's copies are rows too. */
  canFilterCopies?: boolean;
};

export function Filters({ filters, apps, projects, total, onChange, canFilterAssignee = false, canFilterCopies = false }: Props) {
  const t = useT();
  const nf = useFormat().number;
  const people = useQuery({ ...assignablePeopleQuery(), enabled: canFilterAssignee });
  const [q, setQ] = useState(filters.q ?? "");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onChange({ q: q.trim() || undefined });
  };
  // Keep a filtered app visible in the list even before the counts arrive.
  const appOptions = filters.app && !apps.includes(filters.app) ? [filters.app, ...apps] : apps;
  const projectOptions = filters.project && !projects.includes(filters.project) ? [filters.project, ...projects] : projects;
  return (
    <form className="toolbar" role="search" onSubmit={submit}>
      <label className="field">
        <span>{t("list.filter.project")}</span>
        <select className="select" value={filters.project ?? ""} onChange={(e) => onChange({ project: e.target.value || undefined })}>
          <option value="">{t("list.filter.allProjects")}</option>
          {projectOptions.map((p) => (
            <option key={p} value={p} data-i18n="data">
              {p}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t("list.filter.app")}</span>
        <select className="select" value={filters.app ?? ""} onChange={(e) => onChange({ app: e.target.value || undefined })}>
          <option value="">{t("list.filter.allApps")}</option>
          {appOptions.map((a) => (
            <option key={a} value={a} data-i18n="data">
              {a}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t("list.filter.status")}</span>
        <select
          className="select"
          value={filters.status ?? ""}
          onChange={(e) => onChange({ status: (e.target.value || undefined) as TaskStatus | undefined })}
        >
          <option value="">{t("list.filter.allStatuses")}</option>
          {TASK_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}`)}
            </option>
          ))}
        </select>
      </label>
      {canFilterAssignee && (
        <label className="field">
          <span>{t("list.filter.assignee")}</span>
          <select className="select" value={filters.assignee ?? ""} onChange={(e) => onChange({ assignee: e.target.value || undefined })}>
            <option value="">{t("list.filter.anyone")}</option>
            <option value="none">{t("list.filter.unassigned")}</option>
            {people.data?.people.map((p) => (
              <option key={p.email} value={p.email} data-i18n="data">
                {p.email}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="field">
        <span>{t("list.filter.duplicates")}</span>
        <select
          className="select"
          value={filters.duplicates ?? ""}
          onChange={(e) => onChange({ duplicates: e.target.value === "only" ? "only" : undefined })}
        >
          <option value="">{t("list.filter.allTrajectories")}</option>
          <option value="only">{t("list.filter.duplicatesOnly")}</option>
        </select>
      </label>
      {canFilterCopies && (
        <label className="field">
          <span>{t("list.filter.copies")}</span>
          <select
            className="select"
            value={filters.copies ?? ""}
            // Choosing a filter here drops "one trajectory's copies" (the mark's link) for the wider view.
            onChange={(e) =>
              onChange({ copies: e.target.value === "" ? undefined : (e.target.value as "only" | "all"), copyOf: undefined })
            }
          >
            <option value="">{t("list.filter.originalsOnly")}</option>
            <option value="only">{t("list.filter.copiesOnly")}</option>
            <option value="all">{t("list.filter.copiesAll")}</option>
          </select>
        </label>
      )}
      <label className="field">
        <span>{t("list.filter.query")}</span>
        <input
          className="input grow"
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder={t("list.filter.placeholder")}
        />
      </label>
      <button className="btn" type="submit">
        {t("list.filter.search")}
      </button>
      <span className="count" role="status" aria-label={t("list.matchingLabel")}>
        {total === undefined ? "" : t("list.matching", { n: nf(total) })}
      </span>
    </form>
  );
}
