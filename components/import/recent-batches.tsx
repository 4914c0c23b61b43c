"use client";

import { useQuery } from "@tanstack/react-query";
import { importBatchesQuery } from "@/lib/queries/imports";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";

export function RecentBatches() {
  const query = useQuery(importBatchesQuery());
  return (
    <section className="panel recent" aria-label="Recent imports">
      <div className="panel-pad">
        <h2>Recent imports</h2>
      </div>
      {query.error ? (
        <div className="panel-pad">
          <ErrorBox error={query.error} />
        </div>
      ) : !query.data ? (
        <Loading />
      ) : query.data.batches.length === 0 ? (
        <EmptyState title="No imports yet" />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>File</th>
              <th>Format</th>
              <th>Project</th>
              <th className="num">Trajectories</th>
              <th className="num">Steps</th>
              <th className="num">Skipped</th>
              <th>When</th>
            </tr>
          </thead>
          <tbody>
            {query.data.batches.map((b) => (
              <tr key={b.id}>
                <td>{b.fileName}</td>
                <td className="nowrap">{b.format}</td>
                <td className="nowrap">{b.project}</td>
                <td className="num">{b.trajectories}</td>
                <td className="num">{b.steps}</td>
                <td className="num">{b.duplicates}</td>
                <td className="nowrap muted">{new Date(b.startedAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
