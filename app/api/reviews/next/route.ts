// POST /api/reviews/next: claim the next submitted trajectory to review (or keep the one already claimed); {id} or {id: null}
import { nextReviewSchema } from "@/lib/domain/review";
import { startNextReview } from "@/lib/server/review";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "trajectory.review",
  output: nextReviewSchema,
  handler: async ({ actor }) => ({ id: await startNextReview({ actor }) }),
});
