"use client";

import type { Dashboard } from "@/lib/domain/dashboard";
import { useFormat, useT } from "@/lib/i18n/react";
import { CsvLink } from "./csv-link";

/** Handed-in work by lane: fast-lane tasks counted apart from fully corrected ones (issue 24). */
export function LaneCounts({ lanes }: { lanes: Dashboard["lanes"] }) {
  const t = useT();
  const format = useFormat();
  const rows = [
    { key: "full", label: t("lane.dashboard.full"), n: lanes.full },
    { key: "fast", label: t("lane.dashboard.fast"), n: lanes.fast },
    { key: "fast-then-full", label: t("lane.dashboard.fastThenFull"), n: lanes.fastThenFull },
    { key: "queued", label: t("lane.dashboard.queued"), n: lanes.queued },
  ];
  return (
    <section className="panel chart-panel" aria-label={t("lane.dashboard.title")} data-testid="lane-counts">
      <div className="panel-title-row">
        <h2>{t("lane.dashboard.title")}</h2>
        <CsvLink table="lanes" title={t("lane.dashboard.title")} />
      </div>
      <p>{t("lane.dashboard.note")}</p>
      <table className="table">
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-lane={r.key}>
              <th scope="row">{r.label}</th>
              <td>{format.number(r.n)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
