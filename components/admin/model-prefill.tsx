"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { ErrorBox } from "@/components/ui/states";
import { useFormat, useT } from "@/lib/i18n/react";
import { IncludeHandedInField } from "./include-handed-in";
import { useStartModelJob } from "@/lib/queries/model";
import { parseFilters } from "@/lib/queries/trajectories";

type Scope = "selected" | "matching";

/**
 * The trajectory list's "Pre-annotate…" action: start a batch pre-annotation job over the selected
 * trajectories, or over every trajectory matching the list's current filters that still has a step
 * nobody has touched. The job then runs in the background; /admin/model shows it.
 */
export function PrefillAction({ selected }: { selected: string[] }) {
  const t = useT();
  const nf = useFormat().number;
  const params = useSearchParams();
  const start = useStartModelJob();
  const [isOpen, setOpen] = useState(false);
  const [scope, setScope] = useState<Scope>("selected");
  // Off by default: submitted and approved work is included only when an admin says so, each time.
  const [include, setInclude] = useState(false);
  const filters = parseFilters(Object.fromEntries(params.entries()));
  const matching = { project: filters.project, app: filters.app, status: filters.status, q: filters.q, assignee: filters.assignee };
  const filterWords = [
    matching.project && t("model.prefill.filter.project", { project: matching.project }),
    matching.app && t("model.prefill.filter.app", { app: matching.app }),
    matching.status && t("model.prefill.filter.status", { status: matching.status.replace("_", " ") }),
    matching.q && t("model.prefill.filter.q", { q: matching.q }),
    matching.assignee && t("model.prefill.filter.assignee", { assignee: matching.assignee }),
  ].filter(Boolean);

  return (
    <>
      <button
        type="button"
        className="btn"
        aria-expanded={isOpen}
        disabled={selected.length === 0}
        onClick={() => {
          start.reset();
          setOpen((o) => !o);
        }}
      >
        {t("model.prefill.open")}
      </button>
      {isOpen && (
        <div className="panel panel-pad" style={{ flexBasis: "100%" }} role="dialog" aria-label={t("model.prefill.title")}>
          <p>{t("model.prefill.sub")}</p>
          <fieldset className="field">
            <legend>{t("model.prefill.which")}</legend>
            <label>
              <input type="radio" name="prefill-scope" checked={scope === "selected"} onChange={() => setScope("selected")} />{" "}
              {t("model.prefill.selected", { n: nf(selected.length) })}
            </label>
            <label>
              <input type="radio" name="prefill-scope" checked={scope === "matching"} onChange={() => setScope("matching")} />{" "}
              {t("model.prefill.matching", {
                filters: filterWords.length ? filterWords.join(", ") : t("model.prefill.noFilters"),
              })}
            </label>
          </fieldset>
          <IncludeHandedInField checked={include} onChange={setInclude} />
          <div className="form-row">
            <button
              type="button"
              className="btn btn-primary"
              disabled={start.isPending || start.isSuccess}
              onClick={() =>
                start.mutate(
                  scope === "selected"
                    ? { kind: "prefill", trajectoryIds: selected, includeSubmittedAndApproved: include }
                    : { kind: "prefill", matching, includeSubmittedAndApproved: include },
                )
              }
            >
              {t("model.prefill.start")}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
              {t("model.prefill.close")}
            </button>
          </div>
          {start.isError && <ErrorBox error={start.error} />}
          {start.data && (
            <p role="status">
              {t("model.prefill.started", {
                trajectories: nf(start.data.job.trajectories),
                steps: nf(start.data.job.progress.total),
              })}{" "}
              <Link href="/admin/model">{t("model.prefill.follow")}</Link>
            </p>
          )}
        </div>
      )}
    </>
  );
}
