// GET /api/eval-sets: frozen evaluation sets, newest first. POST /api/eval-sets: freeze the next version of a set
import { freezeEvalSetInput, snapshotAnswerSchema, snapshotsSchema } from "@/lib/domain/snapshots";
import { freezeEvalSet, listSnapshots } from "@/lib/server/export";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "export.run",
  output: snapshotsSchema,
  handler: async ({ actor }) => ({ snapshots: await listSnapshots({ caller: actor, kind: "eval-set" }) }),
});

export const POST = route({
  permission: "export.run",
  body: freezeEvalSetInput,
  output: snapshotAnswerSchema,
  status: 201,
  handler: async ({ actor, body }) => ({ snapshot: await freezeEvalSet({ caller: actor, ...body }) }),
});
