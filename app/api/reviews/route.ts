// GET /api/reviews: submitted work waiting for review (reviewers and admins)
import { reviewQueueSchema } from "@/lib/domain/review";
import { reviewQueue } from "@/lib/server/review";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "trajectory.review",
  output: reviewQueueSchema,
  handler: async ({ actor }) => ({ rows: await reviewQueue({ actor }) }),
});
