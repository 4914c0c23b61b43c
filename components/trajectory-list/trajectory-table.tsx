import Link from "next/link";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { useFormatNumber } from "@/components/ui/format";
import type { TrajectoryRow } from "@/lib/domain/views";
import { useT } from "@/lib/i18n/react";

type Selection = { ids: Set<string>; toggle: (id: string) => void; setAll: (ids: string[], on: boolean) => void };

export function TrajectoryTable({ rows, selection }: { rows: TrajectoryRow[]; selection?: Selection }) {
  const t = useT();
  const nf = useFormatNumber();
  const allOn = selection !== undefined && rows.length > 0 && rows.every((r) => selection.ids.has(r.id));
  return (
    <table className="table">
      <thead>
        <tr>
          {selection && (
            <th>
              <input
                type="checkbox"
                aria-label={t("list.col.selectAll")}
                checked={allOn}
                onChange={(e) =>
                  selection.setAll(
                    rows.map((r) => r.id),
                    e.target.checked,
                  )
                }
              />
            </th>
          )}
          <th>{t("list.col.app")}</th>
          <th>{t("list.col.instruction")}</th>
          <th className="num">{t("list.col.steps")}</th>
          <th>{t("list.col.status")}</th>
          <th>{t("list.col.outcome")}</th>
          <th>{t("list.col.assignee")}</th>
          <th>{t("list.col.source")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            {selection && (
              <td>
                <input
                  type="checkbox"
                  aria-label={t("list.col.select", { instruction: r.instruction })}
                  checked={selection.ids.has(r.id)}
                  onChange={() => selection.toggle(r.id)}
                />
              </td>
            )}
            <td className="nowrap">{r.app}</td>
            <td className="instruction">
              <Link href={`/trajectories/${r.id}`}>{r.instruction}</Link>
            </td>
            <td className="num">{nf(r.stepCount)}</td>
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
