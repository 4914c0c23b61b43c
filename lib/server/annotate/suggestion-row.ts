// A step's suggestions as the editor and the provenance read them: the row mapper, and the suggestions a person
// accepted (the latest of each kind). Below lib/server/model, which asks the endpoint and writes the rows.
import { suggestionViewSchema, type FailedPrediction, type SuggestionView } from "@/lib/domain/model";
import { type Db, type Tx, Prisma } from "../db";
import { readRows } from "../fast";

export type SuggestionRow = Awaited<ReturnType<Db["stepSuggestion"]["findFirstOrThrow"]>>;

/** A StepSuggestion row as the editor reads it (the output parsed back from its stored JSON). */
export function suggestionView(row: SuggestionRow, failedPrediction: FailedPrediction | null = null): SuggestionView {
  return suggestionViewSchema.parse({
    id: row.id,
    kind: row.kind,
    stepId: row.stepId,
    prompt: row.prompt,
    model: row.model,
    output: JSON.parse(row.outputJson),
    createdAt: row.createdAt.toISOString(),
    failedPrediction,
  });
}

/** The latest accepted suggestion of each kind for a step, with its acceptance time (for provenance at save). */
export async function acceptedSuggestions(tx: Db | Tx, stepId: string): Promise<(SuggestionView & { acceptedAt: Date })[]> {
  // Most steps never had a suggestion accepted: one indexed lookup answers that on every save.
  const any = await readRows(
    tx,
    Prisma.sql`SELECT 1 AS "one" FROM "StepSuggestion" WHERE "stepId" = ${stepId} AND "acceptedAt" IS NOT NULL LIMIT 1`,
  );
  if (any.length === 0) return [];
  const rows = await tx.stepSuggestion.findMany({ where: { stepId, acceptedAt: { not: null } }, orderBy: { acceptedAt: "desc" } });
  const seen = new Set<string>();
  const out: (SuggestionView & { acceptedAt: Date })[] = [];
  for (const r of rows) {
    if (seen.has(r.kind)) continue;
    seen.add(r.kind);
    out.push({ ...suggestionView(r), acceptedAt: r.acceptedAt! });
  }
  return out;
}
