import { getField, type StepAnnotation } from "@/lib/domain/annotation";
import { PROVENANCE_FIELDS, provenanceAfterEdit, stepProvenanceSchema, type StepProvenance } from "@/lib/domain/model";
import type { Db, Tx } from "./db";
import { acceptedSuggestions } from "./suggest";

/** A step's stored provenance (fields with no entry hold what was imported). */
export function readProvenance(json: string | null | undefined): StepProvenance {
  if (!json) return {};
  const r = stepProvenanceSchema.safeParse(JSON.parse(json));
  return r.success ? r.data : {};
}

/**
 * The provenance a save leaves: every tracked field whose value changes gets a new entry (typed,
 * suggested-accepted or suggested-edited, judged against the step's accepted suggestions); the
 * others keep theirs. Also the before/after pairs for the save's audit row.
 */
export async function provenanceAfterSave(
  tx: Tx | Db,
  row: { id: string; provenanceJson: string | null },
  before: StepAnnotation,
  after: StepAnnotation,
  at = new Date(),
): Promise<{ json: string | null; auditBefore: { provenance?: StepProvenance }; auditAfter: { provenance?: StepProvenance } }> {
  const prev = readProvenance(row.provenanceJson);
  const changed = PROVENANCE_FIELDS.filter((f) => JSON.stringify(getField(before, f)) !== JSON.stringify(getField(after, f)));
  if (changed.length === 0) return { json: row.provenanceJson, auditBefore: {}, auditAfter: {} };
  const accepted = await acceptedSuggestions(tx, row.id);
  const next: StepProvenance = { ...prev };
  const b: StepProvenance = {};
  const a: StepProvenance = {};
  for (const f of changed) {
    const candidates = accepted.filter((s) => (s.kind === "thought" ? f.startsWith("thought.") : !f.startsWith("thought.")));
    next[f] = provenanceAfterEdit(f, getField(after, f), prev[f], candidates[0] ?? null, at);
    if (prev[f]) b[f] = prev[f];
    a[f] = next[f];
  }
  return { json: JSON.stringify(next), auditBefore: { provenance: b }, auditAfter: { provenance: a } };
}
