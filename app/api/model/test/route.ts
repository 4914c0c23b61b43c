// POST /api/model/test: send one real request to the model endpoint and show what came back (admin)
import { z } from "zod";
import { connectionTestSchema } from "@/lib/domain/model";
import { testModelConnection } from "@/lib/server/model";
import { route } from "@/lib/server/route";

export const POST = route({
  permission: "model.manage",
  output: z.object({ test: connectionTestSchema }),
  handler: async ({ actor }) => ({ test: await testModelConnection({ actor }) }),
});
