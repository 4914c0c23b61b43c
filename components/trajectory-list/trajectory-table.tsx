import Link from "next/link";
import { Badge, StatusBadge } from "@/components/ui/badge";
import type { TrajectoryRow } from "@/lib/queries/trajectories";

type Selection = { ids: Set<string>; toggle: (id: string) => void; setAll: (ids: string[], on: boolean) => void };

export function TrajectoryTable({ rows, selection }: { rows: TrajectoryRow[]; selection?: Selection }) {
  const allOn = selection !== undefined && rows.length > 0 && rows.every((r) => selection.ids.has(r.id));
  return (
    <table className="table">
      <thead>
        <tr>
          {selection && (
            <th>
              <input type="checkbox" aria-label="Select all on this page" checked={allOn} onChange={(e) => selection.setAll(rows.map((r) => r.id), e.target.checked)} />
            </th>
          )}
          <th>App</th>
          <th>Instruction</th>
          <th className="num">Steps</th>
          <th>Status</th>
          <th>Outcome</th>
          <th>Assignee</th>
          <th>Source</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            {selection && (
              <td>
                <input type="checkbox" aria-label={`Select ${r.instruction}`} checked={selection.ids.has(r.id)} onChange={() => selection.toggle(r.id)} />
              </td>
            )}
            <td className="nowrap">{r.app}</td>
            <td className="instruction">
              <Link href={`/trajectories/${r.id}`}>{r.instruction}</Link>
            </td>
            <td className="num">{r.stepCount}</td>
            <td className="nowrap">
              <StatusBadge status={r.status} />
            </td>
            <td className="nowrap">
              <Badge value={r.outcome} />
            </td>
            <td className="nowrap muted">{r.assignee ?? "—"}</td>
            <td className="nowrap muted" title={r.sourceRef ?? undefined}>
              {r.source}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
