// GET /api/model/jobs: pre-annotation and judge jobs. POST: start one in the background (admin)
import { modelJobAnswerSchema, modelJobListSchema, startModelJobInput } from "@/lib/domain/model";
import { listModelJobs, startModelJob } from "@/lib/server/model";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "model.manage",
  output: modelJobListSchema,
  handler: async ({ actor }) => ({ jobs: await listModelJobs({ actor }) }),
});

export const POST = route({
  permission: "model.manage",
  body: startModelJobInput,
  output: modelJobAnswerSchema,
  status: 202,
  handler: async ({ actor, body }) => ({ job: await startModelJob({ actor, ...body }) }),
});
