// GET /api/audit: one page of the audit trail, filtered; a step's own history (entityType=step&entityId=) for whoever may read its trajectory
import { auditPageSchema, auditQueryInput } from "@/lib/domain/audit-log";
import { readAudit } from "@/lib/server/people";
import { route } from "@/lib/server/http";

// trajectory.read: the whole trail is for audit.read (admins); the use case lets others read only their steps' histories.
export const GET = route({
  permission: "trajectory.read",
  query: auditQueryInput,
  output: auditPageSchema,
  handler: ({ actor, query }) => readAudit({ actor, filters: query }),
});
