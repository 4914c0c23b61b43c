import type { Metadata } from "next";
import { AnnotationEditor } from "@/components/editor/annotation-editor";
import { StepViewer } from "@/components/step-viewer/step-viewer";
import { annotationAccess } from "@/lib/server/annotate";
import { pageActor } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Trajectory" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ step?: string | string[] }> };

/** The annotation editor for whoever may annotate this trajectory; the read-only viewer for everyone else. */
export default async function TrajectoryPage({ params, searchParams }: Props) {
  const { id } = await params;
  const actor = await pageActor(`/trajectories/${id}`, "trajectory.list");
  const { step } = await searchParams;
  // ?step=N is 1-based, as the counter shows it; the editor and viewer clamp it to the trajectory.
  const n = Number(Array.isArray(step) ? step[0] : step);
  const initialStepIndex = Number.isInteger(n) && n > 0 ? n - 1 : 0;
  const access = await annotationAccess({ actor, id });
  if (access.canAnnotate) return <AnnotationEditor id={id} initialStepIndex={initialStepIndex} />;
  return <StepViewer id={id} initialStepIndex={initialStepIndex} />;
}
