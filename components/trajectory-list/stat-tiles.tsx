import { TASK_STATUSES } from "@/lib/domain/status";
import { useFormat, useT } from "@/lib/i18n/react";
import type { ListTally } from "@/lib/domain/views";

/** What the list holds under its filters, over all its pages (the list's own query counts it: issue 36). */
export function StatTiles({ stats, isFiltered }: { stats: ListTally | undefined; isFiltered: boolean }) {
  const t = useT();
  const nf = useFormat().number;
  const fmt = (n: number | undefined) => (n === undefined ? "…" : nf(n));
  const tiles = [
    { id: "trajectories", label: t("list.tile.trajectories"), value: stats?.trajectories, primary: true },
    { id: "steps", label: t("list.tile.steps"), value: stats?.steps },
    { id: "apps", label: t("list.tile.apps"), value: stats?.apps },
    ...TASK_STATUSES.map((s) => ({ id: s, label: t(`status.${s}`), value: stats?.byStatus[s], primary: false })),
  ];
  return (
    <ul
      className="tiles"
      aria-label={isFiltered ? t("list.tilesFiltered") : t("list.tiles")}
      style={{ listStyle: "none", padding: 0, margin: "0 0 12px" }}
    >
      {tiles.map((tile) => (
        <li key={tile.id} className={`tile${tile.primary ? " tile-primary" : ""}`} aria-label={`${tile.label}: ${fmt(tile.value)}`}>
          <div className="tile-label">{tile.label}</div>
          <div className="tile-value">{fmt(tile.value)}</div>
        </li>
      ))}
    </ul>
  );
}
