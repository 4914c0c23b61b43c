// GET /api/stats: counts of trajectories, steps, apps and statuses (an annotator's own work only)
import { statsSchema } from "@/lib/domain/views";
import { route } from "@/lib/server/http";
import { getStats } from "@/lib/server/annotate";

export const GET = route({ permission: "stats.read", output: statsSchema, handler: ({ actor }) => getStats({ actor }) });
