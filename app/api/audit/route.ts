// GET /api/audit: one page of the audit trail, filtered; a step's own history (entityType=step&entityId=) for whoever may read its trajectory
import { authed, json } from "@/lib/server/http";
import { readAudit } from "@/lib/server/audit-query";
import { auditQueryInput } from "@/lib/domain/audit-log";

export const GET = authed(async (req: Request, _ctx: unknown, actor) => {
  // An empty filter field in the URL means "no filter", not an invalid value.
  const params = Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v.trim() !== ""));
  return json(await readAudit(actor, auditQueryInput.parse(params)));
});
