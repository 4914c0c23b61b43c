// GET /api/dashboard/gold?threshold=: each person's accuracy against gold tasks, per field, flagged below the threshold (reviewers and admins)
import { goldAccuracyQuery, goldAccuracySchema } from "@/lib/domain/gold";
import { goldAccuracy } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "trajectory.review",
  query: goldAccuracyQuery,
  output: goldAccuracySchema,
  handler: ({ actor, query }) => goldAccuracy({ actor, threshold: query.threshold }),
});
