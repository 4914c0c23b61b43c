"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ErrorBox } from "@/components/ui/states";
import { exportKeys, exportQuery, exportsQuery } from "@/lib/queries/exports";
import { ExportForm } from "./export-form";
import { ExportList } from "./export-list";
import { ExportProgress } from "./export-progress";

/** The export page's client half: form, the running job's progress, and the list of exports. */
export function ExportPanel() {
  const client = useQueryClient();
  const list = useQuery(exportsQuery());
  const [startedId, setStartedId] = useState<string | null>(null);
  // An export started elsewhere (another tab, another admin) shows its progress here too.
  const shownId = startedId ?? list.data?.exports.find((e) => e.state === "running")?.id ?? null;
  const current = useQuery({ ...exportQuery(shownId ?? ""), enabled: shownId !== null });
  const job = shownId ? current.data?.export : undefined;
  const isRunning = job?.state === "running";
  useEffect(() => {
    if (job && job.state !== "running") void client.invalidateQueries({ queryKey: exportKeys.list() });
  }, [job, client]);
  return (
    <>
      <ExportForm isRunning={isRunning} onStarted={(j) => setStartedId(j.id)} />
      {current.error && <ErrorBox error={current.error} />}
      {job && <ExportProgress job={job} />}
      <ExportList />
    </>
  );
}
