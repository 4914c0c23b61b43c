"use client";

import { useQuery } from "@tanstack/react-query";
import { FAST_LANE_AFTER, type FastLaneAfter } from "@/lib/domain/lane";
import { ErrorBox, Loading } from "@/components/ui/states";
import { useFormat, useT } from "@/lib/i18n/react";
import { projectLanesQuery, useSetProjectLane } from "@/lib/queries/lane";

/** Per project: what the first-error fast lane does with the steps after the first error (cut, or queue for full correction). */
export function ProjectLanes() {
  const t = useT();
  const format = useFormat();
  const query = useQuery(projectLanesQuery());
  const save = useSetProjectLane();
  if (query.error) return <ErrorBox error={query.error} />;
  if (!query.data) return <Loading />;
  const { projects } = query.data;
  return (
    <section className="panel panel-pad admin-section" aria-labelledby="project-lanes-title">
      <h2 id="project-lanes-title">{t("lane.admin.title")}</h2>
      <p className="sub">{t("lane.admin.sub")}</p>
      {projects.length === 0 ? (
        <p className="muted">{t("lane.admin.none")}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t("lane.admin.project")}</th>
              <th scope="col">{t("lane.admin.trajectories")}</th>
              <th scope="col">{t("lane.admin.after")}</th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <tr key={p.id}>
                <th scope="row" data-i18n="data">
                  {p.name}
                </th>
                <td>{format.number(p.trajectories)}</td>
                <td>
                  <select
                    aria-label={t("lane.admin.afterFor", { project: p.name })}
                    value={p.fastLaneAfter}
                    disabled={save.isPending}
                    onChange={(e) => save.mutate({ id: p.id, fastLaneAfter: e.target.value as FastLaneAfter })}
                  >
                    {FAST_LANE_AFTER.map((a) => (
                      <option key={a} value={a}>
                        {t(`lane.admin.after.${a}`)}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {save.isSuccess && <p role="status">{t("lane.admin.saved")}</p>}
      {save.error && <ErrorBox error={save.error} />}
    </section>
  );
}
