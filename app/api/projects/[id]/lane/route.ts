// PUT /api/projects/:id/lane: what the fast lane does with the steps after the first error (admin)
import { projectLaneViewSchema, saveProjectLaneInput } from "@/lib/domain/lane";
import { idParams } from "@/lib/domain/views";
import { setProjectLane } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const PUT = route({
  permission: "project.configure",
  params: idParams,
  body: saveProjectLaneInput,
  output: projectLaneViewSchema,
  handler: ({ actor, params, body }) => setProjectLane({ actor, id: params.id, ...body }),
});
