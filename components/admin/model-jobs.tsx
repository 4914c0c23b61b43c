"use client";

import { StoredMessageText } from "@/components/ui/stored-message";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ErrorBox, Loading } from "@/components/ui/states";
import { PREFILL_SKIP_REASONS } from "@/lib/domain/model";
import { useFormat, useT } from "@/lib/i18n/react";
import { IncludeHandedInField } from "./include-handed-in";
import { modelJobsQuery, useModelJobCommand, useStartModelJob, type ModelJobView } from "@/lib/queries/model";

/** Start pre-annotation or judge jobs, watch their progress and tokens, pause/resume/cancel them. */
export function ModelJobs() {
  const t = useT();
  const query = useQuery(modelJobsQuery());
  const start = useStartModelJob();
  const command = useModelJobCommand();
  const [ids, setIds] = useState("");
  const [include, setInclude] = useState(false);
  const trajectoryIds = ids.split(/[\s,]+/).filter(Boolean);

  return (
    <section className="panel panel-pad admin-section" aria-labelledby="model-jobs-title">
      <h2 id="model-jobs-title">{t("model.jobs.title")}</h2>
      <p className="muted">{t("model.jobs.sub")}</p>
      <p className="muted">
        {t("model.jobs.fromList")} <Link href="/trajectories">{t("model.jobs.toList")}</Link>
      </p>
      <label className="field">
        <span>{t("model.jobs.ids")}</span>
        <textarea className="input" rows={3} value={ids} onChange={(e) => setIds(e.target.value)} />
        <small className="muted">{t("model.jobs.idsHint")}</small>
      </label>
      <IncludeHandedInField checked={include} onChange={setInclude} />
      <div className="form-row">
        <button
          className="btn btn-primary"
          type="button"
          disabled={start.isPending || trajectoryIds.length === 0}
          onClick={() => start.mutate({ kind: "prefill", trajectoryIds, includeSubmittedAndApproved: include })}
        >
          {t("model.jobs.startPrefill")}
        </button>
        <button className="btn" type="button" disabled={start.isPending} onClick={() => start.mutate({ kind: "judge", trajectoryIds })}>
          {t("model.jobs.startJudge")}
        </button>
      </div>
      {start.error && <ErrorBox error={start.error} />}
      {command.error && <ErrorBox error={command.error} />}
      {query.error && <ErrorBox error={query.error} />}
      {!query.data ? (
        <Loading />
      ) : query.data.jobs.length === 0 ? (
        <p className="muted">{t("model.jobs.none")}</p>
      ) : (
        <table className="table" aria-label={t("model.jobs.title")}>
          <thead>
            <tr>
              <th>{t("model.jobs.kind")}</th>
              <th>{t("model.jobs.state")}</th>
              <th>{t("model.jobs.progress")}</th>
              <th>{t("model.jobs.tokens")}</th>
              <th>{t("model.jobs.started")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {query.data.jobs.map((j) => (
              <JobRow key={j.id} job={j} onCommand={(c) => command.mutate({ id: j.id, command: c })} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function JobRow({ job, onCommand }: { job: ModelJobView; onCommand: (c: "pause" | "resume" | "cancel") => void }) {
  const t = useT();
  const format = useFormat();
  return (
    <tr data-testid={`model-job-${job.id}`}>
      <td>
        {t(`model.jobs.kind.${job.kind}`)}{" "}
        <span className="muted small">
          {t("model.jobs.trajectories", { n: job.trajectories })} · <span data-i18n="data">{job.prompt}</span> ·{" "}
          <span data-i18n="data">{job.model}</span>
          {job.includesSubmittedAndApproved && <> · {t("model.jobs.includes")}</>}
        </span>
      </td>
      <td>
        {t(`model.jobs.state.${job.state}`)}
        {job.error && (
          <div className="problem is-blocking small">
            <StoredMessageText message={job.errorMessage} fallback={job.error} />
          </div>
        )}
      </td>
      <td>
        <progress max={Math.max(1, job.progress.total)} value={job.progress.done} />{" "}
        {t("model.jobs.progressOf", { done: job.progress.done, total: job.progress.total })}
        <div className="muted small">
          {job.skipped} {t("model.jobs.skipped")} · {job.failures} {t("model.jobs.failures")}
        </div>
        {job.skipped > 0 && (
          <div className="muted small" data-testid="model-job-skipped-by">
            {PREFILL_SKIP_REASONS.filter((r) => job.skippedBy[r])
              .map((r) => t(`model.jobs.skip.${r}`, { n: job.skippedBy[r]! }))
              .join(" · ")}
          </div>
        )}
      </td>
      <td>{t("model.jobs.tokensOf", { prompt: job.tokens.prompt, completion: job.tokens.completion })}</td>
      <td>{format.dateTime(job.startedAt)}</td>
      <td>
        {job.state === "running" && (
          <button className="btn btn-small" type="button" onClick={() => onCommand("pause")}>
            {t("model.jobs.pause")}
          </button>
        )}
        {/* A failed job goes on where it stopped: the same row, the items not yet done. */}
        {(job.state === "paused" || job.state === "failed") && (
          <button className="btn btn-small" type="button" onClick={() => onCommand("resume")}>
            {t("model.jobs.resume")}
          </button>
        )}
        {(job.state === "running" || job.state === "paused") && (
          <button className="btn btn-small btn-ghost" type="button" onClick={() => onCommand("cancel")}>
            {t("model.jobs.cancel")}
          </button>
        )}
      </td>
    </tr>
  );
}
