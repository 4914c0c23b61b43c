"use client";

import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { IMPORT_FORMATS } from "@/lib/domain/import-formats";
import { QWEN_MAX_PIXELS } from "@/lib/domain/geometry";
import { importJobQuery, useImportEnded, useImportMutation, type UploadProgress } from "@/lib/queries/imports";
import { CopiesQuestion, ImportOutcome } from "./import-outcome";
import { ImportJobProgress, UploadProgressBar } from "./upload-progress";
import { useT } from "@/lib/i18n/react";

// The last project this person imported into, kept in this browser per person (the studio has no
// server-side person settings yet): the next visit starts there instead of an empty field.
const lastProjectKey = (personId: string) => `studio.prefs.${personId}.importProject`;
function readLastProject(personId: string): string {
  try {
    return window.localStorage.getItem(lastProjectKey(personId)) ?? "";
  } catch {
    // Storage refused (private mode): the field starts empty, as before.
    return "";
  }
}
const onStorage = (onChange: () => void) => {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
};

export function ImportForm({ personId }: { personId: string }) {
  const t = useT();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const lastProject = useSyncExternalStore(
    onStorage,
    () => readLastProject(personId),
    () => "",
  );
  /** The files and fields last sent: answering the copies question sends them again with the answer. */
  const sent = useRef<FormData | null>(null);
  const [frame, setFrame] = useState<"original" | "resized" | "rel1000">("original");
  const mutation = useImportMutation(setProgress);
  // Once the files are received the import runs on the server: follow it until it ends.
  const jobId = mutation.data?.id ?? null;
  const job = useQuery({ ...importJobQuery(jobId ?? ""), enabled: jobId !== null });
  const ended = job.data && job.data.state !== "running" ? job.data.state : null;
  const onEnded = useImportEnded();
  useEffect(() => {
    if (ended) onEnded();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per import that ends
  }, [ended, jobId]);
  const isBusy = mutation.isPending || (jobId !== null && !ended);

  const send = (form: FormData) => {
    sent.current = form;
    setProgress({ phase: "uploading", loaded: 0, total: 1 });
    mutation.mutate(form, { onSettled: () => setProgress(null) });
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    try {
      window.localStorage.setItem(lastProjectKey(personId), String(new FormData(e.currentTarget).get("project") ?? "").trim());
    } catch {
      // Not remembered; the import itself goes on.
    }
    send(new FormData(e.currentTarget));
  };
  const answer = (choice: "import" | "skip" | null) => {
    const last = sent.current;
    if (choice === null || !last) return mutation.reset();
    const again = new FormData();
    for (const [k, v] of last.entries()) if (k !== "onOtherProjects") again.append(k, v);
    again.set("onOtherProjects", choice);
    send(again);
  };

  return (
    <>
      <form className="panel import-form" onSubmit={submit} aria-label={t("import.form")}>
        <label className="field files-field">
          <span>{t("import.files")}</span>
          <input name="files" type="file" multiple required accept=".zip,.jsonl,.png,.jpg,.jpeg,.webp" className="file-input" />
        </label>
        <div className="form-row">
          <label className="field">
            <span>{t("import.format")}</span>
            <select name="format" className="select" defaultValue="mobile-r1">
              {IMPORT_FORMATS.map((f) => (
                <option key={f} value={f} title={t(`import.format.${f}`)}>
                  {f}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t("import.project")}</span>
            {/* Keyed by the remembered name: it fills in once the browser's storage has been read (after hydration). */}
            <input key={lastProject} name="project" className="input" placeholder="default" maxLength={100} defaultValue={lastProject} />
          </label>
          <label className="field">
            <span>{t("import.frame")}</span>
            <select
              name="frame"
              className="select"
              value={frame}
              onChange={(e) => setFrame(e.target.value as "original" | "resized" | "rel1000")}
            >
              <option value="original">{t("import.frame.original")}</option>
              <option value="resized">{t("import.frame.resized")}</option>
              <option value="rel1000">{t("import.frame.rel1000")}</option>
            </select>
          </label>
          {frame === "resized" && (
            <label className="field">
              <span>{t("import.maxPixels")}</span>
              <input name="maxPixels" className="input" type="number" min={3136} defaultValue={QWEN_MAX_PIXELS} />
            </label>
          )}
          <button className="btn btn-primary" type="submit" disabled={isBusy}>
            {isBusy ? t("import.submitting") : t("import.submit")}
          </button>
        </div>
        {mutation.isPending && progress && <UploadProgressBar progress={progress} />}
        {!mutation.isPending && (job.data ?? mutation.data)?.state === "running" && (
          <ImportJobProgress job={(job.data ?? mutation.data)!} />
        )}
      </form>
      {!mutation.isPending && mutation.error && <ImportOutcome error={mutation.error} />}
      {!mutation.isPending && ended === "asked" && job.data && <CopiesQuestion job={job.data} onAnswer={answer} />}
      {!mutation.isPending && ended && ended !== "asked" && <ImportOutcome job={job.data} />}
      {job.isError && <ImportOutcome error={job.error} />}
    </>
  );
}
