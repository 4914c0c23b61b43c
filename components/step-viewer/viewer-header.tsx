import Link from "next/link";
import { Badge, StatusBadge } from "@/components/ui/badge";
import type { TrajectoryView } from "@/lib/queries/trajectories";

export function ViewerHeader({ trajectory: t }: { trajectory: TrajectoryView }) {
  return (
    <header className="viewer-head">
      <Link href="/trajectories" className="back">
        ← Trajectories
      </Link>
      <div className="viewer-title">
        <div className="viewer-meta">
          <span className="app-name">{t.app}</span>
          <StatusBadge status={t.status} />
          <span className="meta-item">
            outcome <Badge value={t.outcome} />
          </span>
          {t.originalOutcome && t.originalOutcome !== t.outcome && (
            <span className="meta-item">
              model said <Badge value={t.originalOutcome} />
            </span>
          )}
          <span className="meta-item muted" title={t.sourceRef ?? undefined}>
            {t.source}
            {t.sourceRef ? ` · ${t.sourceRef}` : ""} · project {t.project}
          </span>
        </div>
        <h1 className="instruction-title">{t.instruction}</h1>
      </div>
    </header>
  );
}
