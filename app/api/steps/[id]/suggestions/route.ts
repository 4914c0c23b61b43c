// POST /api/steps/:id/suggestions {kind: thought|action}: ask the model for a suggestion for this step (whoever may edit it);
// closing the request takes it out of the model queue, or aborts it in flight. GET: the suggestion a job left waiting
// on this step (an evaluation run's answer sent to annotation), or null.
import { z } from "zod";
import { requestSuggestionInput, suggestionViewSchema } from "@/lib/domain/model";
import { idParams } from "@/lib/domain/views";
import { route } from "@/lib/server/http";
import { suggestForStep, waitingSuggestion } from "@/lib/server/model";

export const POST = route({
  permission: "trajectory.annotate",
  params: idParams,
  body: requestSuggestionInput,
  output: z.object({ suggestion: suggestionViewSchema }),
  status: 201,
  handler: async ({ actor, params, body, req }) => ({
    suggestion: await suggestForStep({ actor, stepId: params.id, kind: body.kind, signal: req.signal }),
  }),
});

export const GET = route({
  permission: "trajectory.annotate",
  params: idParams,
  output: z.object({ suggestion: suggestionViewSchema.nullable() }),
  handler: async ({ actor, params }) => ({ suggestion: await waitingSuggestion({ actor, stepId: params.id }) }),
});
