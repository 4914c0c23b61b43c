import Link from "next/link";
import { ErrorBox } from "@/components/ui/states";
import { problemsOf, type ImportSuccess } from "@/lib/queries/imports";

export function ImportOutcome({ result, error }: { result: ImportSuccess | undefined; error: unknown }) {
  if (result) {
    return (
      <section className="panel panel-pad outcome outcome-ok" role="status" aria-label="Import result">
        <h2>Import succeeded</h2>
        <p>
          Imported <strong>{result.trajectories}</strong> trajectories and <strong>{result.steps}</strong> steps into project{" "}
          <strong>{result.project}</strong>
          {result.duplicates > 0 && <> ({result.duplicates} already present, skipped)</>}, with {result.screenshots} distinct screenshots.{" "}
          <Link href="/trajectories">Open the trajectories</Link>
        </p>
      </section>
    );
  }
  const problems = problemsOf(error);
  if (problems.length === 0) {
    return (
      <section className="outcome" aria-label="Import result">
        <ErrorBox error={error} />
      </section>
    );
  }
  return (
    <section className="panel outcome outcome-bad" role="alert" aria-label="Import result">
      <div className="panel-pad">
        <h2>Import failed — nothing was imported</h2>
        <p>{error instanceof Error ? error.message : ""} Fix the file and upload it again.</p>
      </div>
      <table className="table problems">
        <thead>
          <tr>
            <th>File</th>
            <th className="num">Line</th>
            <th className="num">Step</th>
            <th>Field</th>
            <th>Problem</th>
          </tr>
        </thead>
        <tbody>
          {problems.map((p, i) => (
            <tr key={i}>
              <td className="nowrap">{p.file}</td>
              <td className="num">{p.line ?? "—"}</td>
              <td className="num">{p.step ?? "—"}</td>
              <td className="nowrap">{p.field ?? "—"}</td>
              <td>{p.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
