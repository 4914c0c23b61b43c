import Link from "next/link";
import { Badge, StatusBadge } from "@/components/ui/badge";
import type { TrajectoryRow, TrajectorySort } from "@/lib/domain/views";
import { useFormat, useT } from "@/lib/i18n/react";

type Selection = { ids: Set<string>; toggle: (row: TrajectoryRow) => void; setAll: (rows: TrajectoryRow[], on: boolean) => void };
/** The list's order: a column and a direction, or none (oldest first). */
export type Sorting = { sort?: TrajectorySort; dir?: "asc" | "desc"; onSort: (sort: TrajectorySort, dir: "asc" | "desc") => void };

/**
 * A column header that sorts: a button named by the column (so it is reached and pressed from the
 * keyboard), the header's aria-sort telling assistive technology the current order (and the
 * stylesheet drawing its arrow, so the header's text stays the column's name). A first press
 * sorts ascending, the next press on the same column descending, and so on.
 */
function SortHeader({
  column,
  label,
  sorting,
  className,
}: {
  column: TrajectorySort;
  label: string;
  sorting?: Sorting;
  className?: string;
}) {
  if (!sorting) return <th className={className}>{label}</th>;
  const active = sorting.sort === column;
  const dir = active ? (sorting.dir ?? "asc") : undefined;
  return (
    <th className={className} aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : "none"}>
      <button type="button" className="th-sort" onClick={() => sorting.onSort(column, dir === "asc" ? "desc" : "asc")}>
        {label}
      </button>
    </th>
  );
}

export function TrajectoryTable({ rows, selection, sorting }: { rows: TrajectoryRow[]; selection?: Selection; sorting?: Sorting }) {
  const t = useT();
  const nf = useFormat().number;
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
                onChange={(e) => selection.setAll(rows, e.target.checked)}
              />
            </th>
          )}
          <th>{t("list.col.project")}</th>
          <SortHeader column="app" label={t("list.col.app")} sorting={sorting} />
          <SortHeader column="instruction" label={t("list.col.instruction")} sorting={sorting} />
          <SortHeader column="steps" label={t("list.col.steps")} sorting={sorting} className="num" />
          <SortHeader column="status" label={t("list.col.status")} sorting={sorting} />
          <SortHeader column="outcome" label={t("list.col.outcome")} sorting={sorting} />
          <SortHeader column="assignee" label={t("list.col.assignee")} sorting={sorting} />
          <SortHeader column="source" label={t("list.col.source")} sorting={sorting} />
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
                  onChange={() => selection.toggle(r)}
                />
              </td>
            )}
            <td className="nowrap muted project" data-i18n="data">
              {r.project}
            </td>
            <td className="nowrap" data-i18n="data">
              {r.app}
            </td>
            <td className="instruction">
              <Link href={`/trajectories/${r.id}`} data-i18n="data">
                {r.instruction}
              </Link>
              {r.copies > 0 && (
                <Link
                  className="mark"
                  href={`/trajectories?copyOf=${encodeURIComponent(r.id)}`}
                  title={t("list.copiesTitle", { n: nf(r.copies) })}
                >
                  <span className="badge badge-copies">{t("list.copies", { n: nf(r.copies) })}</span>
                </Link>
              )}
              {r.copyOf && (
                <Link className="mark" href={`/trajectories/${r.copyOf.id}`} title={t("list.copyOfTitle")}>
                  <span className={`badge ${r.copyOf.kind === "gold" ? "badge-gold" : "badge-copies"}`}>
                    {t("list.copyOf", { kind: r.copyOf.kind })}
                  </span>
                </Link>
              )}
              {r.isGold && (
                <span className="badge badge-gold mark" title={t("list.goldTitle")}>
                  {t("list.gold")}
                </span>
              )}
              {r.nearDuplicate &&
                (r.nearDuplicate.isKeeper ? (
                  <span className="badge badge-approved dup" title={t("list.dup.keeperTitle", { n: nf(r.nearDuplicate.groupSize) })}>
                    {t("list.dup.keeper", { n: nf(r.nearDuplicate.groupSize) })}
                  </span>
                ) : (
                  // A link to the keeper; the badge inside keeps its own colour (the cell colours its links).
                  <Link className="dup" href={`/trajectories/${r.nearDuplicate.keeperId}`} title={t("list.dup.otherTitle")}>
                    <span className="badge badge-unreviewed">{t("list.dup.other")}</span>
                  </Link>
                ))}
            </td>
            <td className="num">{nf(r.stepCount)}</td>
            <td className="nowrap">
              <StatusBadge status={r.status} />
            </td>
            <td className="nowrap">
              <Badge value={r.outcome} />
            </td>
            <td className="nowrap muted" data-i18n="data">
              {r.assignee ?? "—"}
            </td>
            <td className="nowrap muted" data-i18n="data" title={r.sourceRef ?? undefined}>
              {r.source}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
