// GET /api/health: liveness probe for the test server and load balancers
import { okSchema } from "@/lib/domain/views";
import { route } from "@/lib/server/http";

export const GET = route({ permission: "public", output: okSchema, handler: async () => ({ ok: true as const }) });
