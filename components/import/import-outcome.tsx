import { StoredMessageText } from "@/components/ui/stored-message";
import Link from "next/link";
import { fillNodes, messageNodes } from "@/components/ui/format";
import { ErrorBox } from "@/components/ui/states";
import { useFormat, useT } from "@/lib/i18n/react";
import type { ImportJob } from "@/lib/domain/imports";
import { problemKinds, type ImportProblem } from "@/lib/domain/problems";
import { problemsOf } from "@/lib/queries/imports";

/**
 * The question an import asks when some of its trajectories are already in other projects: how
 * many, and where. Nothing was written; the form sends the same files again with the answer.
 */
export function CopiesQuestion({ job, onAnswer }: { job: ImportJob; onAnswer: (a: "import" | "skip" | null) => void }) {
  const t = useT();
  const nf = useFormat().number;
  const copies = job.otherProjects.reduce((n, c) => n + c.count, 0);
  return (
    <section className="panel panel-pad outcome outcome-ask" role="alertdialog" aria-label={t("import.copies.title")}>
      <h2>{t("import.copies.title")}</h2>
      <ul>
        {job.otherProjects.map((c) => (
          <li key={c.project}>
            {messageNodes(
              t,
              "import.copies.inProject",
              { n: nf(c.count) },
              {
                n: <strong>{nf(c.count)}</strong>,
                project: <strong>{c.project}</strong>,
              },
            )}
          </li>
        ))}
      </ul>
      <p>
        {t("import.copies.body", { project: job.project })}
        {/* Said only when some are new: "0 of 1" would read as a problem. */}
        {job.trajectories > copies && ` ${t("import.copies.new", { n: nf(job.trajectories - copies), total: nf(job.trajectories) })}`}
      </p>
      <div className="form-row">
        <button type="button" className="btn" onClick={() => onAnswer("import")}>
          {t("import.copies.import")}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => onAnswer("skip")}>
          {t("import.copies.skip")}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => onAnswer(null)}>
          {t("import.copies.cancel")}
        </button>
      </div>
    </section>
  );
}

/** How an import ended (a job that ran), or why its upload was refused before it could start (`error`). */
export function ImportOutcome({ job, error }: { job?: ImportJob; error?: unknown }) {
  const t = useT();
  const nf = useFormat().number;
  if (job?.state === "succeeded") {
    return (
      <section className="panel panel-pad outcome outcome-ok" role="status" aria-label={t("import.result")}>
        <h2>{t("import.ok.title")}</h2>
        <p>
          {/* The counts choose their plurals ("1 trajectory") and are drawn bold, as the project is. */}
          {messageNodes(
            t,
            "import.ok.body",
            { trajectories: nf(job.trajectories), steps: nf(job.steps), screenshots: nf(job.screenshots) },
            {
              trajectories: <strong>{nf(job.trajectories)}</strong>,
              steps: <strong>{nf(job.steps)}</strong>,
              project: <strong>{job.project}</strong>,
              skipped: job.duplicates > 0 ? t("import.ok.skipped", { n: nf(job.duplicates) }) : "",
            },
          )}{" "}
          <Link href="/trajectories">{t("import.ok.open")}</Link>
        </p>
        {job.otherProjects.length > 0 && (
          <p>
            {t(job.onOtherProjects === "skip" ? "import.ok.copiesSkipped" : "import.ok.copiesImported", {
              n: nf(job.otherProjects.reduce((n, c) => n + c.count, 0)),
            })}
          </p>
        )}
      </section>
    );
  }
  if (job?.state === "refused") {
    const more = job.problemCount - job.problems.length;
    return (
      <Problems
        problems={job.problems}
        message={`${t("import.refused.count", { n: nf(job.problemCount) })}${more > 0 ? ` ${t("import.refused.more", { n: nf(more) })}` : ""}`}
      />
    );
  }
  if (job?.state === "failed") {
    return (
      <section className="panel panel-pad outcome outcome-bad" role="alert" aria-label={t("import.result")}>
        <h2>{t("import.failed.title")}</h2>
        <p>
          <StoredMessageText message={job.errorMessage} fallback={job.error} />
        </p>
      </section>
    );
  }
  const problems = problemsOf(error);
  if (problems.length === 0) {
    return (
      <section className="outcome" aria-label={t("import.result")}>
        <ErrorBox error={error} />
      </section>
    );
  }
  return <Problems problems={problems} message={error instanceof Error ? error.message : ""} />;
}

function Problems({ problems, message }: { problems: ImportProblem[]; message: string }) {
  const t = useT();
  const nf = useFormat().number;
  const kinds = problemKinds(problems);
  return (
    <section className="panel outcome outcome-bad" role="alert" aria-label={t("import.result")}>
      <div className="panel-pad">
        <h2>{t("import.failed.title")}</h2>
        <p>
          {message} {t("import.failed.fix")}
        </p>
      </div>
      {/* Counts by kind first: 206 missing screenshots read as one row, then the list. */}
      <table className="table problems problem-kinds" aria-label={t("import.kinds")}>
        <thead>
          <tr>
            <th className="num">{t("import.col.count")}</th>
            <th>{t("import.col.field")}</th>
            <th>{t("import.col.kind")}</th>
          </tr>
        </thead>
        <tbody>
          {kinds.map((k) => (
            <tr key={`${k.field} ${k.message}`}>
              <td className="num">{nf(k.count)}</td>
              <td className="nowrap" data-i18n="data">
                {k.field || "—"}
              </td>
              <td>
                {/* A kind's words with its per-record values left out; stored words without a code are shown as they are. */}
                {k.code === "other" ? <span data-i18n="data">{k.message}</span> : t(`importProblem.${k.code}`).replace(/\{\w+\}/g, "…")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="table problems" aria-label={t("import.list")}>
        <thead>
          <tr>
            <th>{t("import.col.file")}</th>
            <th className="num">{t("import.col.line")}</th>
            <th className="num">{t("import.col.step")}</th>
            <th>{t("import.col.field")}</th>
            <th>{t("import.col.problem")}</th>
          </tr>
        </thead>
        <tbody>
          {problems.map((p, i) => (
            <tr key={i}>
              <td className="nowrap" data-i18n="data">
                {p.file}
              </td>
              <td className="num">{p.line ?? "—"}</td>
              <td className="num">{p.step === undefined ? "—" : p.step + 1}</td>
              <td className="nowrap" data-i18n="data">
                {p.field ?? "—"}
              </td>
              <td>
                <ProblemText problem={p} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** One problem in the reader's language: the catalogue's sentence for its code, its parameters (data) as written. */
function ProblemText({ problem }: { problem: ImportProblem }) {
  const t = useT();
  const nodes = Object.fromEntries(Object.entries(problem.params ?? {}).map(([k, v]) => [k, <span data-i18n="data">{v}</span>]));
  return <>{fillNodes(t(`importProblem.${problem.code}`), nodes)}</>;
}
