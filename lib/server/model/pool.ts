// The one way a model job works through its items (pre-annotation, judge and evaluation runs alike): a few
// workers share the queue (the endpoint's concurrency), each checks the job is still this process's before
// taking an item, and the job stops after MAX_FAILURES_IN_ROW endpoint failures in a row (the endpoint is down,
// not one item odd). Exactly that many are counted: the calls still in flight then are aborted, not counted,
// and asked again on resume. The job's own signal (cancel, takeover) aborts the calls in flight too.
import { AppError, storeMessage } from "../errors";
import { reasonOf } from "./call-errors";

/** A job stops (failed, resumable) after this many model failures in a row. */
export const MAX_FAILURES_IN_ROW = 5;

export type PoolItem = {
  /** Aborted by the job's signal and by the stop rule: pass it to the model call. */
  signal: AbortSignal;
  /** The job was cancelled or taken over (not stopped by the rule): write nothing more. */
  isCancelled: () => boolean;
};

/**
 * Work through `queue` with `concurrency` workers. `work` throws when the model call fails; `failed` then
 * records the item (after the count, so two failures landing together cannot both pass the limit). Answers
 * the stored stop message when the rule fired, else null; what is left in `queue` was not taken.
 */
export async function workThrough<T>({
  queue,
  concurrency,
  signal,
  stillMine,
  work,
  failed,
}: {
  queue: T[];
  concurrency: number;
  signal: AbortSignal;
  stillMine: () => Promise<boolean>;
  work: (item: T, ctx: PoolItem) => Promise<void>;
  failed?: (item: T, error: unknown) => Promise<void>;
}): Promise<string | null> {
  const abort = new AbortController();
  if (signal.aborted) abort.abort();
  else signal.addEventListener("abort", () => abort.abort(), { once: true });
  let inRow = 0;
  let stopped: string | null = null;
  const ctx: PoolItem = { signal: abort.signal, isCancelled: () => abort.signal.aborted && !stopped };

  const one = async (item: T) => {
    try {
      await work(item, ctx);
      inRow = 0;
    } catch (e) {
      if (abort.signal.aborted || stopped || reasonOf(e) === "cancelled") return;
      // Counted before any await, so two failures landing together cannot both pass the limit.
      inRow += 1;
      if (inRow >= MAX_FAILURES_IN_ROW) {
        // The endpoint's own words are the detail (the studio's sentence around them is the reader's language).
        const last = e instanceof AppError ? (e.upstream ?? e.message) : (e as Error).message;
        stopped = storeMessage({ key: "job.modelStopped", vars: { n: inRow }, detail: last });
        abort.abort();
      }
      await failed?.(item, e);
    }
  };

  const workers = Array.from({ length: Math.max(1, concurrency) }, async () => {
    for (;;) {
      if (stopped || !(await stillMine())) return;
      const next = queue.shift();
      if (next === undefined) return;
      await one(next);
    }
  });
  await Promise.all(workers);
  return stopped;
}
