"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { filtersToSearch, statsQuery, trajectoryListQuery, type TrajectoryFilters } from "@/lib/queries/trajectories";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { AssignBar } from "./assign-bar";
import { Filters } from "./filters";
import { Pager } from "./pager";
import { StatTiles } from "./stat-tiles";
import { TrajectoryTable } from "./trajectory-table";

export function TrajectoryList({ filters, canAssign = false }: { filters: TrajectoryFilters; canAssign?: boolean }) {
  const router = useRouter();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const selection = {
    ids: selected,
    toggle: (id: string) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    setAll: (ids: string[], on: boolean) =>
      setSelected((prev) => {
        const next = new Set(prev);
        for (const id of ids) if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
  };
  const stats = useQuery(statsQuery());
  const list = useQuery(trajectoryListQuery(filters));
  const go = (next: Partial<TrajectoryFilters>) => router.push(`/trajectories${filtersToSearch({ ...filters, page: 1, ...next })}`);
  const isFiltered = Boolean(filters.app || filters.status || filters.q || filters.assignee);

  if (stats.data && stats.data.trajectories === 0) {
    return (
      <main className="page">
        <div className="page-head">
          <h1>Trajectories</h1>
        </div>
        <div className="panel">
          <EmptyState title="No trajectories yet — import some">
            <p>
              Bring in Mobile-R1, UI-S1 or studio JSONL with its screenshots on the <Link href="/import">Import page</Link>.
            </p>
          </EmptyState>
        </div>
      </main>
    );
  }

  return (
    <main className="page">
      <div className="page-head">
        <h1>Trajectories</h1>
        <span className="sub">Open a task to walk its steps · <span className="kbd">←</span> <span className="kbd">→</span> in the viewer</span>
      </div>
      {stats.error ? <ErrorBox error={stats.error} /> : <StatTiles stats={stats.data} />}
      <section className="panel" aria-label="Trajectory list">
        <Filters key={filters.q ?? ""} filters={filters} apps={stats.data?.byApp.map((a) => a.app) ?? []} onChange={go} total={list.data?.total} canFilterAssignee={canAssign} />
        {canAssign && selected.size > 0 && <AssignBar selected={[...selected]} onDone={() => setSelected(new Set())} />}
        {list.error ? (
          <div className="panel-pad">
            <ErrorBox error={list.error} />
          </div>
        ) : !list.data ? (
          <Loading>Loading trajectories…</Loading>
        ) : list.data.rows.length === 0 ? (
          <EmptyState title={isFiltered ? "No trajectories match these filters" : "No trajectories on this page"}>
            <p>
              <Link href="/trajectories">Clear the filters</Link>
            </p>
          </EmptyState>
        ) : (
          <>
            <TrajectoryTable rows={list.data.rows} selection={canAssign ? selection : undefined} />
            <Pager page={list.data.page} pageSize={list.data.pageSize} total={list.data.total} onPage={(page) => go({ page })} />
          </>
        )}
      </section>
    </main>
  );
}
