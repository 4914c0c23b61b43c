// GET /api/comments?trajectoryId=: a trajectory's comments. POST /api/comments: comment on a trajectory or a step
import { commentInput, commentsQueryInput, commentsSchema, commentViewSchema } from "@/lib/domain/review";
import { addComment, listComments } from "@/lib/server/review";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "trajectory.read",
  query: commentsQueryInput,
  output: commentsSchema,
  handler: async ({ actor, query }) => ({ rows: await listComments({ actor, trajectoryId: query.trajectoryId }) }),
});

export const POST = route({
  permission: "comment.write",
  body: commentInput,
  output: commentViewSchema,
  status: 201,
  handler: ({ actor, body }) => addComment({ actor, ...body }),
});
