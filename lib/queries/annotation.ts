import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { annotationOf, trajectoryAnnotationOf, type StepAnnotation, type TrajectoryAnnotation } from "@/lib/domain/annotation";
import { leaseSchema, stepViewSchema, trajectoryAnnotationViewSchema, trajectoryViewSchema, type StepView } from "@/lib/domain/views";
import type { SaveOutcome } from "@/lib/canvas/autosave";
import { apiErrorFrom } from "./fetcher";
import { taskKeys } from "./tasks";
import { trajectoryKeys } from "./trajectories";

/**
 * PUT a versioned value and classify the answer for autosave: saved, a conflict (409 with the
 * current value in `issues.current`), offline (no answer, or a 5xx worth retrying), or rejected.
 */
async function putVersioned<V, T>(
  url: string,
  body: unknown,
  schema: z.ZodType<V>,
  pick: (v: V) => { version: number; value: T },
): Promise<SaveOutcome> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "PUT",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    return { kind: "offline" };
  }
  const json: unknown = await res.json().catch(() => undefined);
  if (res.ok) return { kind: "saved", synced: pick(schema.parse(json)) as never };
  if (res.status === 409) {
    const current = z.object({ error: z.object({ issues: z.object({ current: schema }) }) }).safeParse(json);
    if (current.success) return { kind: "conflict", theirs: pick(current.data.error.issues.current) as never };
  }
  if (res.status >= 500 || res.status === 0) return { kind: "offline" };
  return { kind: "rejected", message: apiErrorFrom(res.status, json).message };
}

/** Save one step; `onSaved` gets the server's view of the saved step (its provenance is only known there). */
export function saveStepRequest(
  stepId: string,
  value: StepAnnotation,
  version: number,
  onSaved?: (step: StepView) => void,
): Promise<SaveOutcome> {
  return putVersioned(`/api/steps/${encodeURIComponent(stepId)}/annotation`, { ...value, version }, stepViewSchema, (v) => {
    onSaved?.(v);
    return { version: v.version, value: annotationOf(v) };
  });
}

export function saveTrajectoryRequest(id: string, value: TrajectoryAnnotation, version: number): Promise<SaveOutcome> {
  return putVersioned(
    `/api/trajectories/${encodeURIComponent(id)}/annotation`,
    { ...value, version },
    trajectoryAnnotationViewSchema,
    (v) => ({ version: v.version, value: trajectoryAnnotationOf(v) }),
  );
}

async function post<T>(url: string, schema: z.ZodType<T>): Promise<T> {
  const res = await fetch(url, { method: "POST", headers: { accept: "application/json" } });
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw apiErrorFrom(res.status, body);
  return schema.parse(body);
}

export const renewLeaseRequest = (id: string) => post(`/api/trajectories/${encodeURIComponent(id)}/lease`, leaseSchema);

export function useSubmitTrajectory(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => post(`/api/trajectories/${encodeURIComponent(id)}/submit`, trajectoryViewSchema),
    onSuccess: (view) => client.setQueryData(trajectoryKeys.detail(id), view),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: taskKeys.all });
      void client.invalidateQueries({ queryKey: trajectoryKeys.lists() });
    },
  });
}
