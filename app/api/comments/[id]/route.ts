// PATCH /api/comments/:id: resolve a comment or open it again ({isResolved})
import { commentViewSchema, resolveInput } from "@/lib/domain/review";
import { idParams } from "@/lib/domain/views";
import { setCommentResolved } from "@/lib/server/review";
import { route } from "@/lib/server/http";

export const PATCH = route({
  permission: "comment.write",
  params: idParams,
  body: resolveInput,
  output: commentViewSchema,
  handler: ({ actor, params, body }) => setCommentResolved({ actor, commentId: params.id, ...body }),
});
