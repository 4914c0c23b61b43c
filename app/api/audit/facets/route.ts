// GET /api/audit/facets: the actions and entity types in the audit trail (for the filter menus)
import { auditFacetsSchema } from "@/lib/domain/audit-log";
import { auditFacets } from "@/lib/server/people";
import { route } from "@/lib/server/http";

export const GET = route({ permission: "audit.read", output: auditFacetsSchema, handler: ({ actor }) => auditFacets({ actor }) });
