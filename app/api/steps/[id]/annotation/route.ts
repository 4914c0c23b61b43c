// PUT /api/steps/:id/annotation: save one step's annotation (409 with the current step when the version is stale)
import { saveStepInput } from "@/lib/domain/annotation";
import { idParams, stepViewSchema } from "@/lib/domain/views";
import { saveStepAnnotation } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const PUT = route({
  permission: "trajectory.annotate",
  params: idParams,
  body: saveStepInput,
  output: stepViewSchema,
  handler: ({ actor, params, body }) => saveStepAnnotation({ actor, stepId: params.id, ...body }),
});
