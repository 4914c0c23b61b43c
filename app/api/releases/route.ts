// GET /api/releases: dataset releases, newest first, with counts and who cut them. POST /api/releases: cut the next release
import { cutReleaseInput, snapshotAnswerSchema, snapshotsSchema } from "@/lib/domain/snapshots";
import { cutRelease, listSnapshots } from "@/lib/server/export";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "export.run",
  output: snapshotsSchema,
  handler: async ({ actor }) => ({ snapshots: await listSnapshots({ caller: actor, kind: "release" }) }),
});

export const POST = route({
  permission: "export.run",
  body: cutReleaseInput,
  output: snapshotAnswerSchema,
  status: 201,
  handler: async ({ actor, body }) => ({ snapshot: await cutRelease({ caller: actor, ...body }) }),
});
