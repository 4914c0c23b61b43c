import Link from "next/link";
import { Badge, StatusBadge } from "@/components/ui/badge";
import type { TrajectoryView } from "@/lib/domain/views";
import { useT } from "@/lib/i18n/react";

export function ViewerHeader({ trajectory: tr }: { trajectory: TrajectoryView }) {
  const t = useT();
  return (
    <header className="viewer-head">
      <Link href="/trajectories" className="back">
        {t("viewer.back")}
      </Link>
      <div className="viewer-title">
        <div className="viewer-meta">
          <span className="app-name" data-i18n="data">
            {tr.app}
          </span>
          <StatusBadge status={tr.status} />
          <span className="meta-item">
            {t("viewer.outcome")} <Badge value={tr.outcome} />
          </span>
          {tr.originalOutcome && tr.originalOutcome !== tr.outcome && (
            <span className="meta-item">
              {t("viewer.modelSaid")} <Badge value={tr.originalOutcome} />
            </span>
          )}
          <span className="meta-item muted" title={tr.sourceRef ?? undefined}>
            <span data-i18n="data">
              {tr.source}
              {tr.sourceRef ? ` · ${tr.sourceRef}` : ""}
            </span>{" "}
            · {t("viewer.project", { project: tr.project })}
          </span>
        </div>
        <h1 className="instruction-title" data-i18n="data">
          {tr.instruction}
        </h1>
      </div>
    </header>
  );
}
