// GET /api/releases/diff?from=<n>&to=<n>: trajectories added, removed and changed (per step and field, with who and when)
import { releaseDiffQuery, releaseDiffSchema } from "@/lib/domain/snapshots";
import { diffReleases } from "@/lib/server/export";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "export.run",
  query: releaseDiffQuery,
  output: releaseDiffSchema,
  handler: ({ actor, query }) => diffReleases({ caller: actor, from: query.from, to: query.to }),
});
