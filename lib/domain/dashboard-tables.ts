import { z } from "zod";
import { STEP_AGREEMENT_FIELDS, TRAJECTORY_AGREEMENT_FIELDS, type AgreementReport, type FieldFigures } from "./agreement";
import type { Dashboard } from "./dashboard";
import type { EffortFigures } from "./effort";
import type { GoldAccuracy } from "./gold";
import type { JudgeAgreement } from "./model";
import { TASK_STATUSES } from "./status";
import { VERDICTS } from "./trajectory";

// Every table the dashboard shows, as columns and rows (issue 26 item 6): the one shape the CSV
// download and its JSON twin are both written from, so a spreadsheet holds the page's numbers.

/** The dashboard's tables, by the name their download URL carries. */
export const DASHBOARD_TABLES = [
  "by-app",
  "verdicts",
  "annotators",
  "daily",
  "review",
  "lanes",
  "judge-by-app",
  "judge-disagreements",
  "effort-by-person",
  "effort-by-app",
  "effort-by-action-type",
  "agreement-by-pair",
  "agreement-by-app",
  "agreement-by-action-type",
  "agreement-alpha",
  "gold-accuracy",
] as const;
export type DashboardTableName = (typeof DASHBOARD_TABLES)[number];
export const dashboardTableParams = z.object({ table: z.enum(DASHBOARD_TABLES) });
export const dashboardTableQuery = z.object({ format: z.enum(["csv", "json"]).default("csv") });

/** A cell: text, a count, a ratio 0..1 (never a formatted percentage: a spreadsheet computes with it), or empty. */
export type Cell = string | number | null;
/** Column names are stable identifiers (snake_case), the same in every language, so a sheet's formulas keep working. */
export const dashboardTableSchema = z.object({
  table: z.enum(DASHBOARD_TABLES),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
});
export type DashboardTable = z.infer<typeof dashboardTableSchema>;

/** Which figures a table is written from: the dashboard's, the judge's, the time per step, or the agreement between people. */
export function tableSource(name: DashboardTableName): "dashboard" | "judge" | "effort" | "agreement" | "gold" {
  for (const source of ["judge", "effort", "agreement", "gold"] as const) if (name.startsWith(`${source}-`)) return source;
  return "dashboard";
}

/** The figures the tables are written from; a table reads only its own source. */
export type TableSources = {
  dashboard?: Dashboard;
  judge?: JudgeAgreement;
  effort?: EffortFigures;
  agreement?: AgreementReport;
  gold?: GoldAccuracy;
};

/** The agreement tables are long: one row per group and field (compared, agreed, rate 0..1, kappa for categorical fields). */
const AGREEMENT_FIELD_COLUMNS = ["field", "compared", "agreed", "rate", "kappa"];
function agreementRows(head: Cell[], fields: FieldFigures): Cell[][] {
  return [...STEP_AGREEMENT_FIELDS, ...TRAJECTORY_AGREEMENT_FIELDS].map((f) => {
    const x = fields[f];
    return [...head, f, x.compared, x.agreed, x.rate, x.kappa ?? null];
  });
}

const ratio = (n: number, of: number): number | null => (of === 0 ? null : n / of);

/** One of the dashboard's tables from the figures the page shows (tableSource names which). */
export function dashboardTable(name: DashboardTableName, sources: TableSources): DashboardTable {
  const need = <T>(x: T | undefined): T => {
    if (x === undefined) throw new Error(`table ${name} needs the ${tableSource(name)} figures`);
    return x;
  };
  const d = sources.dashboard;
  const judge = sources.judge;
  const effortColumns = ["steps", "median_ms", "total_ms", "saves"];
  const effortCells = (r: EffortFigures["overall"]): Cell[] => [r.steps, r.medianMs, r.totalMs, r.edits];
  switch (name) {
    case "by-app":
      return {
        table: name,
        columns: ["app", ...TASK_STATUSES],
        rows: need(d).byApp.map((r) => [r.app, ...TASK_STATUSES.map((s) => r[s])]),
      };
    case "verdicts":
      return { table: name, columns: ["verdict", "steps"], rows: VERDICTS.map((v) => [v, need(d).verdicts[v]]) };
    case "annotators":
      return {
        table: name,
        columns: ["email", "assigned", "in_progress", "submitted", "approved", "sent_back", "approved_share"],
        rows: need(d).annotators.map((a) => [
          a.email,
          a.assigned,
          a.inProgress,
          a.submitted,
          a.approved,
          a.sentBack,
          ratio(a.approved, a.assigned),
        ]),
      };
    case "daily":
      return {
        table: name,
        columns: ["day", "step_edits", "submitted", "approved", "sent_back"],
        rows: need(d).daily.map((r) => [r.day, r.stepEdits, r.submitted, r.approved, r.sentBack]),
      };
    case "review": {
      const r = need(d).review;
      return {
        table: name,
        columns: ["approved", "sent_back", "approval_rate"],
        rows: [[r.approved, r.sentBack, ratio(r.approved, r.approved + r.sentBack)]],
      };
    }
    case "lanes": {
      const l = need(d).lanes;
      return {
        table: name,
        columns: ["lane", "trajectories"],
        rows: [
          ["full", l.full],
          ["fast", l.fast],
          ["fast-then-full", l.fastThenFull],
          ["queued", l.queued],
        ],
      };
    }
    case "judge-by-app": {
      const j = need(judge);
      const row = (app: string, g: JudgeAgreement["overall"]): Cell[] => [app, g.pairs, g.agree, ratio(g.agree, g.pairs), g.kappa];
      return {
        table: name,
        columns: ["app", "pairs", "agree", "agreement", "kappa"],
        rows: [...j.byApp.map((g) => row(g.app, g)), row("(all)", j.overall)],
      };
    }
    case "judge-disagreements":
      return {
        table: name,
        columns: ["trajectory_id", "app", "instruction", "human", "judge", "reason", "model", "prompt"],
        rows: need(judge).disagreements.map((x) => [x.trajectoryId, x.app, x.instruction, x.human, x.judge, x.reason, x.model, x.prompt]),
      };
    case "effort-by-person":
      return {
        table: name,
        columns: ["email", ...effortColumns],
        rows: need(sources.effort).byPerson.map((r) => [r.email, ...effortCells(r)]),
      };
    case "effort-by-app":
      return { table: name, columns: ["app", ...effortColumns], rows: need(sources.effort).byApp.map((r) => [r.app, ...effortCells(r)]) };
    case "effort-by-action-type":
      return {
        table: name,
        columns: ["action_type", ...effortColumns],
        rows: need(sources.effort).byActionType.map((r) => [r.actionType, ...effortCells(r)]),
      };
    case "agreement-by-pair":
      return {
        table: name,
        columns: ["person_a", "person_b", "trajectories", "steps", ...AGREEMENT_FIELD_COLUMNS],
        rows: need(sources.agreement).byPair.flatMap((p) => agreementRows([p.a, p.b, p.trajectories, p.steps], p.fields)),
      };
    case "agreement-by-app": {
      const a = need(sources.agreement);
      return {
        table: name,
        columns: ["app", ...AGREEMENT_FIELD_COLUMNS],
        rows: [...a.byApp.flatMap((g) => agreementRows([g.app], g.fields)), ...agreementRows(["(all)"], a.overall)],
      };
    }
    case "agreement-by-action-type":
      return {
        table: name,
        columns: ["action_type", ...AGREEMENT_FIELD_COLUMNS],
        rows: need(sources.agreement).byActionType.flatMap((g) => agreementRows([g.actionType], g.fields)),
      };
    case "agreement-alpha": {
      const a = need(sources.agreement).alpha;
      return {
        table: name,
        columns: ["field", "krippendorff_alpha"],
        rows: [
          ["actionType", a.actionType],
          ["verdict", a.verdict],
          ["outcome", a.outcome],
        ],
      };
    }
    case "gold-accuracy":
      // One row per person and field; the person's overall accuracy and flag repeat on each of their rows.
      return {
        table: name,
        columns: ["email", "gold_tasks", "accuracy", "flagged", "field", "compared", "agreed", "rate"],
        rows: need(sources.gold).people.flatMap((p) =>
          p.fields.map((f) => [p.email, p.goldTasks, p.accuracy, p.isFlagged ? "yes" : "no", f.field, f.compared, f.agreed, f.rate]),
        ),
      };
  }
}
