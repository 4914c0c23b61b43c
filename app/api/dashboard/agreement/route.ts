// GET /api/dashboard/agreement?project=: agreement between the people who corrected the same trajectories (reviewers and admins)
import { agreementQuery, agreementReportSchema } from "@/lib/domain/overlap";
import { agreementFigures } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "trajectory.review",
  query: agreementQuery,
  output: agreementReportSchema,
  handler: ({ actor, query }) => agreementFigures({ actor, project: query.project }),
});
