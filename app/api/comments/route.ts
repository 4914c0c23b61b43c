// GET /api/comments?trajectoryId=: a trajectory's comments. POST /api/comments: comment on a trajectory or a step
import { z } from "zod";
import { commentInput } from "@/lib/domain/review";
import { authed, json, readJson } from "@/lib/server/http";
import { addComment, listComments } from "@/lib/server/review";

const querySchema = z.object({ trajectoryId: z.string().min(1).max(100) });

export const GET = authed(async (req: Request, _ctx: unknown, actor) => {
  const { trajectoryId } = querySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
  return json({ rows: await listComments(actor, trajectoryId) });
});

export const POST = authed(async (req: Request, _ctx: unknown, actor) => json(await addComment(actor, commentInput.parse(await readJson(req))), 201));
