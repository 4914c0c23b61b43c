import Link from "next/link";
import { fillNodes, useFormatNumber } from "@/components/ui/format";
import { ErrorBox } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";
import type { ImportSuccess } from "@/lib/domain/imports";
import { problemsOf } from "@/lib/queries/imports";

export function ImportOutcome({ result, error }: { result: ImportSuccess | undefined; error: unknown }) {
  const t = useT();
  const nf = useFormatNumber();
  if (result) {
    return (
      <section className="panel panel-pad outcome outcome-ok" role="status" aria-label={t("import.result")}>
        <h2>{t("import.ok.title")}</h2>
        <p>
          {fillNodes(t("import.ok.body"), {
            trajectories: <strong>{nf(result.trajectories)}</strong>,
            steps: <strong>{nf(result.steps)}</strong>,
            project: <strong>{result.project}</strong>,
            skipped: result.duplicates > 0 ? t("import.ok.skipped", { n: nf(result.duplicates) }) : "",
            screenshots: nf(result.screenshots),
          })}{" "}
          <Link href="/trajectories">{t("import.ok.open")}</Link>
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
  return (
    <section className="panel outcome outcome-bad" role="alert" aria-label={t("import.result")}>
      <div className="panel-pad">
        <h2>{t("import.failed.title")}</h2>
        <p>
          {error instanceof Error ? error.message : ""} {t("import.failed.fix")}
        </p>
      </div>
      <table className="table problems">
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
              <td className="nowrap">{p.file}</td>
              <td className="num">{p.line ?? "—"}</td>
              <td className="num">{p.step === undefined ? "—" : p.step + 1}</td>
              <td className="nowrap">{p.field ?? "—"}</td>
              <td>{p.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
