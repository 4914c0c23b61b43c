import { getField, type StepAnnotation } from "@/lib/domain/annotation";
import { PROVENANCE_FIELDS, provenanceAfterEdit, stepProvenanceSchema, type StepProvenance } from "@/lib/domain/model";
import type { Db, Tx } from "../db";
import { acceptedSuggestions } from "./suggestion-row";

/**
 * A step's stored provenance, or null when the stored value cannot be read (a job must then treat
 * the step as a person's work: reading it as "nothing recorded" would make it look untouched).
 */
export function storedProvenance(json: string | null | undefined): StepProvenance | null {
  if (!json) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const r = stepProvenanceSchema.safeParse(value);
  return r.success ? r.data : null;
}

/** A step's stored provenance (fields with no entry hold what was imported; an unreadable value reads as none). */
export function readProvenance(json: string | null | undefined): StepProvenance {
  return storedProvenance(json) ?? {};
}

/**
 * The provenance a save leaves: every tracked field whose value changes gets a new entry (typed,
 * suggested-accepted or suggested-edited, judged against the step's accepted suggestions, written
 * `by` the saving person's audit label); the others keep theirs. Also the before/after pairs for the
 * save's audit row.
 */
export async function provenanceAfterSave(
  tx: Tx | Db,
  row: { id: string; provenanceJson: string | null },
  before: StepAnnotation,
  after: StepAnnotation,
  by: string,
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
    next[f] = provenanceAfterEdit(f, getField(after, f), prev[f], candidates[0] ?? null, at, by);
    if (prev[f]) b[f] = prev[f];
    a[f] = next[f];
  }
  return { json: JSON.stringify(next), auditBefore: { provenance: b }, auditAfter: { provenance: a } };
}
