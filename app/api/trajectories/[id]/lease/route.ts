// POST /api/trajectories/:id/lease: the editor's heartbeat, extending the assignee's lease
import { idParams, leaseSchema } from "@/lib/domain/views";
import { renewLease } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "trajectory.annotate",
  params: idParams,
  output: leaseSchema,
  handler: ({ actor, params }) => renewLease({ actor, id: params.id }),
});
