import Link from "next/link";
import { Badge, StatusBadge } from "@/components/ui/badge";
import type { TrajectoryRow } from "@/lib/queries/trajectories";

export function TrajectoryTable({ rows }: { rows: TrajectoryRow[] }) {
  return (
    <table className="table">
      <thead>
        <tr>
          <th>App</th>
          <th>Instruction</th>
          <th className="num">Steps</th>
          <th>Status</th>
          <th>Outcome</th>
          <th>Source</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
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
            <td className="nowrap muted" title={r.sourceRef ?? undefined}>
              {r.source}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
