import { Spinner } from "@/components/ui/states";
import type { UploadProgress } from "@/lib/queries/imports";

const mb = (n: number) => `${(n / 1024 ** 2).toFixed(1)} MB`;

export function UploadProgressBar({ progress }: { progress: UploadProgress }) {
  if (progress.phase === "importing") {
    return (
      <div className="progress-line" role="status">
        <Spinner label="Importing" /> Upload complete. Checking every line and screenshot, then importing…
      </div>
    );
  }
  const pct = progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <div className="progress-line" role="status">
      <div className="bar" role="progressbar" aria-label="Upload progress" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100}>
        <div className="bar-fill" style={{ width: `${pct}%` }} />
      </div>
      Uploading {mb(progress.loaded)} of {mb(progress.total)} ({pct}%)
    </div>
  );
}
