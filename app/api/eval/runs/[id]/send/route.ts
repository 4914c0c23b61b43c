// POST /api/eval/runs/:id/send: the run's failing trajectories become tasks of a person, the answers as suggestions
import { sendResultSchema, sendToAnnotationInput } from "@/lib/domain/eval";
import { idParams } from "@/lib/domain/views";
import { sendFailuresToAnnotation } from "@/lib/server/eval";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "trajectory.assign",
  params: idParams,
  body: sendToAnnotationInput,
  output: sendResultSchema,
  handler: ({ actor, params, body }) => sendFailuresToAnnotation({ caller: actor, id: params.id, ...body }),
});
