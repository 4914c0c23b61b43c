// GET /api/audit/facets: the actions and entity types in the audit trail (for the filter menus)
import { authed, json } from "@/lib/server/http";
import { auditFacets } from "@/lib/server/audit-query";

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => json(await auditFacets(actor)));
