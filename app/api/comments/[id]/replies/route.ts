// POST /api/comments/:id/replies: reply in a comment's thread ({body})
import { commentViewSchema, replyInput } from "@/lib/domain/review";
import { idParams } from "@/lib/domain/views";
import { replyToComment } from "@/lib/server/review";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "comment.write",
  params: idParams,
  body: replyInput,
  output: commentViewSchema,
  status: 201,
  handler: ({ actor, params, body }) => replyToComment({ actor, commentId: params.id, ...body }),
});
