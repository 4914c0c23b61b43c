import type { Metadata } from "next";
import { MyTasks } from "@/components/editor/my-tasks";
import { pageActor } from "@/lib/server/pages";

export const metadata: Metadata = { title: "My tasks" };

export default async function TasksPage() {
  await pageActor("/tasks", "trajectory.take");
  return <MyTasks />;
}
