import { STATUS_LABELS, TASK_STATUSES } from "@/lib/domain/status";
import type { z } from "zod";
import type { statsSchema } from "@/lib/queries/trajectories";

type Stats = z.infer<typeof statsSchema>;
const fmt = (n: number | undefined) => (n === undefined ? "…" : n.toLocaleString("en-US"));

export function StatTiles({ stats }: { stats: Stats | undefined }) {
  const tiles = [
    { label: "Trajectories", value: stats?.trajectories, primary: true },
    { label: "Steps", value: stats?.steps },
    { label: "Apps", value: stats?.apps },
    ...TASK_STATUSES.map((s) => ({ label: STATUS_LABELS[s], value: stats?.byStatus[s] })),
  ];
  return (
    <ul className="tiles" aria-label="Counts" style={{ listStyle: "none", padding: 0, margin: "0 0 12px" }}>
      {tiles.map((t) => (
        <li key={t.label} className={`tile${t.primary ? " tile-primary" : ""}`} aria-label={`${t.label}: ${fmt(t.value)}`}>
          <div className="tile-label">{t.label}</div>
          <div className="tile-value">{fmt(t.value)}</div>
        </li>
      ))}
    </ul>
  );
}
