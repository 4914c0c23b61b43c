// POST /api/model/test: send one real request to the model endpoint; its status, timing and a classified reason (admin)
import { z } from "zod";
import { connectionTestSchema } from "@/lib/domain/model";
import { testModelConnection } from "@/lib/server/model";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "model.manage",
  output: z.object({ test: connectionTestSchema }),
  handler: async ({ actor, req }) => ({ test: await testModelConnection({ actor, signal: req.signal }) }),
});
