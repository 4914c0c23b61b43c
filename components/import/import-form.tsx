"use client";

import { useState, type FormEvent } from "react";
import { IMPORT_FORMATS } from "@/lib/domain/import-formats";
import { QWEN_MAX_PIXELS } from "@/lib/domain/geometry";
import { useImportMutation, type UploadProgress } from "@/lib/queries/imports";
import { ImportOutcome } from "./import-outcome";
import { UploadProgressBar } from "./upload-progress";

const FORMAT_HINTS: Record<(typeof IMPORT_FORMATS)[number], string> = {
  "mobile-r1": "Mobile-R1: per step thought, action, response; app_name, instruction",
  "ui-s1": "UI-S1: goal, steps with action_content and screenshot",
  studio: "Studio export (trajectory-studio/v1), annotations included",
};

export function ImportForm() {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [frame, setFrame] = useState<"original" | "resized">("original");
  const mutation = useImportMutation(setProgress);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setProgress({ phase: "uploading", loaded: 0, total: 1 });
    mutation.mutate(new FormData(e.currentTarget), { onSettled: () => setProgress(null) });
  };

  return (
    <>
      <form className="panel import-form" onSubmit={submit} aria-label="Import">
        <label className="field files-field">
          <span>Files: one .zip (a .jsonl plus its images/ folder), or one .jsonl together with its screenshots</span>
          <input name="files" type="file" multiple required accept=".zip,.jsonl,.png,.jpg,.jpeg,.webp" className="file-input" />
        </label>
        <div className="form-row">
          <label className="field">
            <span>Format</span>
            <select name="format" className="select" defaultValue="mobile-r1">
              {IMPORT_FORMATS.map((f) => (
                <option key={f} value={f} title={FORMAT_HINTS[f]}>
                  {f}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Project</span>
            <input name="project" className="input" placeholder="default" maxLength={100} />
          </label>
          <label className="field">
            <span>Coordinates in the file</span>
            <select name="frame" className="select" value={frame} onChange={(e) => setFrame(e.target.value as "original" | "resized")}>
              <option value="original">original screenshot pixels</option>
              <option value="resized">model&apos;s resized frame (smart_resize)</option>
            </select>
          </label>
          {frame === "resized" && (
            <label className="field">
              <span>max_pixels</span>
              <input name="maxPixels" className="input" type="number" min={3136} defaultValue={QWEN_MAX_PIXELS} />
            </label>
          )}
          <button className="btn btn-primary" type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? "Importing…" : "Import"}
          </button>
        </div>
        {mutation.isPending && progress && <UploadProgressBar progress={progress} />}
      </form>
      {!mutation.isPending && (mutation.data || mutation.error) && <ImportOutcome result={mutation.data} error={mutation.error} />}
    </>
  );
}
