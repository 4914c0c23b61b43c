import type { Metadata } from "next";
import { TrajectoryList } from "@/components/trajectory-list/trajectory-list";
import { parseFilters } from "@/lib/queries/trajectories";
import { pageActor } from "@/lib/server/pages";
import { can } from "@/lib/domain/permissions";

export const metadata: Metadata = { title: "Trajectories" };

export default async function TrajectoriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await pageActor("/trajectories", "trajectory.list");
  return (
    <TrajectoryList
      filters={parseFilters(await searchParams)}
      canAssign={can(actor, "trajectory.assign")}
      canSeeCopies={can(actor, "trajectory.review")}
    />
  );
}
