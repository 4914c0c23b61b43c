// GET /api/dashboard/tables/:table?format=csv|json: one dashboard table, as the page shows it, for a spreadsheet (CSV) or a script (JSON)
import {
  dashboardTable,
  dashboardTableParams,
  dashboardTableQuery,
  dashboardTableSchema,
  tableSource,
} from "@/lib/domain/dashboard-tables";
import { toCsv } from "@/lib/server/export";
import { getDashboard, effortFigures, goldAccuracy, agreementFigures } from "@/lib/server/annotate";
import { judgeAgreement } from "@/lib/server/model";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "trajectory.review",
  params: dashboardTableParams,
  query: dashboardTableQuery,
  output: "raw",
  handler: async ({ actor, params, query }) => {
    const source = tableSource(params.table);
    const table = dashboardTable(params.table, {
      dashboard: source === "dashboard" ? await getDashboard({ actor }) : undefined,
      judge: source === "judge" ? await judgeAgreement({ actor }) : undefined,
      effort: source === "effort" ? await effortFigures({ actor }) : undefined,
      agreement: source === "agreement" ? await agreementFigures({ actor }) : undefined,
      gold: source === "gold" ? await goldAccuracy({ actor }) : undefined,
    });
    if (query.format === "json") {
      return new Response(JSON.stringify(dashboardTableSchema.parse(table)), {
        headers: { "Content-Type": "application/json; charset=utf-8" },
      });
    }
    const day = new Date().toISOString().slice(0, 10);
    return new Response(toCsv(table.columns, table.rows), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="studio-${params.table}-${day}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  },
});
