// GET /api/dashboard: progress and quality counts (reviewers and admins)
import { dashboardSchema } from "@/lib/domain/dashboard";
import { getDashboard } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const GET = route({ permission: "trajectory.review", output: dashboardSchema, handler: ({ actor }) => getDashboard({ actor }) });
