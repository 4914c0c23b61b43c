// GET /api/eval-sets/:id: one set version with its members. PATCH /api/eval-sets/:id: mark it held out of training, or not
import { setHeldOutInput, snapshotAnswerSchema, snapshotDetailSchema } from "@/lib/domain/snapshots";
import { idParams } from "@/lib/domain/views";
import { setHeldOut, showSnapshot } from "@/lib/server/export";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "export.run",
  params: idParams,
  output: snapshotDetailSchema,
  handler: ({ actor, params }) => showSnapshot({ caller: actor, id: params.id }),
});

export const PATCH = route({
  permission: "export.run",
  params: idParams,
  body: setHeldOutInput,
  output: snapshotAnswerSchema,
  handler: async ({ actor, params, body }) => ({ snapshot: await setHeldOut({ caller: actor, id: params.id, heldOut: body.heldOut }) }),
});
