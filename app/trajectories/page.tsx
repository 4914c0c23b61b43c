import type { Metadata } from "next";
import { TrajectoryList } from "@/components/trajectory-list/trajectory-list";
import { parseFilters } from "@/lib/queries/trajectories";

export const metadata: Metadata = { title: "Trajectories" };

export default async function TrajectoriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <TrajectoryList filters={parseFilters(await searchParams)} />;
}
