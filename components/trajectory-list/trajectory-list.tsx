"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { TrajectoryFilters, TrajectoryRow } from "@/lib/domain/views";
import { filtersToSearch, statsQuery, trajectoryListQuery } from "@/lib/queries/trajectories";
import { fillNodes } from "@/components/ui/format";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";
import { AssignBar } from "./assign-bar";
import { Filters } from "./filters";
import { Pager } from "./pager";
import { StatTiles } from "./stat-tiles";
import { TrajectoryTable } from "./trajectory-table";

export function TrajectoryList({
  filters,
  canAssign = false,
  canSeeCopies = false,
}: {
  filters: TrajectoryFilters;
  canAssign?: boolean;
  /** Reviewers and admins: the copies filter (an annotator's copies are their work, unmarked). */
  canSeeCopies?: boolean;
}) {
  const t = useT();
  const router = useRouter();
  // The selected rows, by id: kept across pages, with what the bar needs to know of each (status, gold).
  const [selected, setSelected] = useState<Map<string, TrajectoryRow>>(new Map());
  const selection = {
    ids: new Set(selected.keys()),
    toggle: (row: TrajectoryRow) =>
      setSelected((prev) => {
        const next = new Map(prev);
        if (!next.delete(row.id)) next.set(row.id, row);
        return next;
      }),
    setAll: (rows: TrajectoryRow[], on: boolean) =>
      setSelected((prev) => {
        const next = new Map(prev);
        for (const row of rows)
          if (on) next.set(row.id, row);
          else next.delete(row.id);
        return next;
      }),
  };
  const stats = useQuery(statsQuery());
  const list = useQuery(trajectoryListQuery(filters));
  const go = (next: Partial<TrajectoryFilters>) => router.push(`/trajectories${filtersToSearch({ ...filters, page: 1, ...next })}`);
  const isFiltered = Boolean(
    filters.app || filters.status || filters.q || filters.assignee || filters.project || filters.copies || filters.copyOf,
  );

  if (stats.data && stats.data.trajectories === 0) {
    return (
      <main className="page">
        <div className="page-head">
          <h1>{t("list.title")}</h1>
        </div>
        <div className="panel">
          <EmptyState title={t("list.empty.title")}>
            <p>{fillNodes(t("list.empty.body"), { link: <Link href="/import">{t("list.empty.link")}</Link> })}</p>
          </EmptyState>
        </div>
      </main>
    );
  }

  return (
    <main className="page">
      <div className="page-head">
        <h1>{t("list.title")}</h1>
        <span className="sub">
          {fillNodes(t("list.sub"), {
            keys: (
              <>
                <span className="kbd">←</span> <span className="kbd">→</span>
              </>
            ),
          })}
        </span>
      </div>
      {stats.error && <ErrorBox error={stats.error} />}
      {!list.error && <StatTiles stats={list.data?.tally} isFiltered={isFiltered || Boolean(filters.duplicates)} />}
      <section className="panel" aria-label={t("list.region")}>
        <Filters
          key={filters.q ?? ""}
          filters={filters}
          apps={stats.data?.byApp.map((a) => a.app) ?? []}
          projects={stats.data?.byProject.map((p) => p.project) ?? []}
          onChange={go}
          total={list.data?.total}
          canFilterAssignee={canAssign}
          canFilterCopies={canSeeCopies}
        />
        {/* Always there for those who may assign (its controls wait for a selection): the first tick never pushes the rows down. */}
        {canAssign && <AssignBar selected={[...selected.values()]} onDone={() => setSelected(new Map())} />}
        {list.error ? (
          <div className="panel-pad">
            <ErrorBox error={list.error} />
          </div>
        ) : !list.data ? (
          <Loading>{t("list.loading")}</Loading>
        ) : list.data.rows.length === 0 ? (
          <EmptyState title={isFiltered ? t("list.noMatch") : t("list.noPage")}>
            <p>
              <Link href="/trajectories">{t("list.clearFilters")}</Link>
            </p>
          </EmptyState>
        ) : (
          <>
            <TrajectoryTable
              rows={list.data.rows}
              selection={canAssign ? selection : undefined}
              sorting={{ sort: filters.sort, dir: filters.dir, onSort: (sort, dir) => go({ sort, dir }) }}
            />
            <Pager page={list.data.page} pageSize={list.data.pageSize} total={list.data.total} onPage={(page) => go({ page })} />
          </>
        )}
      </section>
    </main>
  );
}
