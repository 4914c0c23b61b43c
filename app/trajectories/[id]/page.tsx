import type { Metadata } from "next";
import { AnnotationEditor } from "@/components/editor/annotation-editor";
import { ReadOnlyView } from "@/components/editor/read-only/read-only-view";
import { annotationAccess } from "@/lib/server/annotate";
import { pageActor } from "@/lib/server/pages";

export const metadata: Metadata = { title: "Trajectory" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ step?: string | string[]; lane?: string | string[] }> };

/** The annotation editor for whoever may annotate this trajectory; the same editor read-only for everyone else. */
export default async function TrajectoryPage({ params, searchParams }: Props) {
  const { id } = await params;
  const actor = await pageActor(`/trajectories/${id}`, "trajectory.list");
  const { step, lane } = await searchParams;
  // ?step=N is 1-based, as the counter shows it; the editor and viewer clamp it to the trajectory.
  const n = Number(Array.isArray(step) ? step[0] : step);
  const initialStepIndex = Number.isInteger(n) && n > 0 ? n - 1 : 0;
  const access = await annotationAccess({ actor, id });
  // ?lane=fast opens the editor in the first-error fast lane (the same editor, another mode).
  const initialMode = (Array.isArray(lane) ? lane[0] : lane) === "fast" ? "fast" : "full";
  if (access.canAnnotate) return <AnnotationEditor id={id} initialStepIndex={initialStepIndex} initialMode={initialMode} />;
  return <ReadOnlyView id={id} initialStepIndex={initialStepIndex} />;
}
