// POST /api/suggestions/:id/accept: record that the person took this suggestion (its values then arrive with the next save)
import { z } from "zod";
import { suggestionViewSchema } from "@/lib/domain/model";
import { idParams } from "@/lib/domain/views";
import { route } from "@/lib/server/http";
import { acceptSuggestion } from "@/lib/server/model";

export const POST = route({
  permission: "trajectory.annotate",
  params: idParams,
  output: z.object({ suggestion: suggestionViewSchema }),
  handler: async ({ actor, params }) => ({ suggestion: await acceptSuggestion({ actor, id: params.id }) }),
});
