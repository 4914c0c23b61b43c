import type { Metadata } from "next";
import { StepViewer } from "@/components/step-viewer/step-viewer";
import { pageActor } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Trajectory" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ step?: string | string[] }> };

export default async function TrajectoryPage({ params, searchParams }: Props) {
  const { id } = await params;
  await pageActor(`/trajectories/${id}`, "trajectory.list");
  const { step } = await searchParams;
  // ?step=N is 1-based, as the counter shows it; the viewer clamps it to the trajectory.
  const n = Number(Array.isArray(step) ? step[0] : step);
  return <StepViewer id={id} initialStepIndex={Number.isInteger(n) && n > 0 ? n - 1 : 0} />;
}
