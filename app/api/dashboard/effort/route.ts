// GET /api/dashboard/effort: median active time per step by person, app and action type (reviewers and admins)
import { effortFiguresSchema } from "@/lib/domain/effort";
import { effortFigures } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "trajectory.review",
  output: effortFiguresSchema,
  handler: ({ actor }) => effortFigures({ actor }),
});
