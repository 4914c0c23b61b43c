// GET /api/health: liveness probe for the test server and load balancers
import { json } from "@/lib/server/http";

export function GET() {
  return json({ ok: true });
}
