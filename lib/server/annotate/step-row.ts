// The one mapping from a step's annotation to its Step row's columns, used by every write of a person's (or a
// job's) annotation: the annotator's save, the reviewer's fix, adjudication, gold resets and import staging. Its
// reverse, a row read as the view every layer uses, is stepFromRow (annotate/trajectories.ts). And the one write of
// an edited step (writeStepAnnotation), which the annotator's save and the reviewer's fix both go through.
// scripts/shape.test.ts keeps the column names (toolCallJson, …) written from an annotation here only.
import type { StepAnnotation } from "@/lib/domain/annotation";
import { Prisma } from "../db";
import type { Exec } from "../fast";

/** The Step columns that hold `a`. */
export function stepAnnotationColumns(a: StepAnnotation) {
  return {
    thoughtState: a.thought.state,
    thoughtNext: a.thought.nextAction,
    thoughtPurpose: a.thought.purpose,
    thought: a.thought.text,
    clearAction: a.clearAction,
    toolCallJson: JSON.stringify(a.toolCall),
    boxJson: a.box ? JSON.stringify(a.box) : null,
    verdict: a.verdict,
  };
}

/** One edited step to write: the version it was read at, what it now holds, and its provenance after the edit. */
export type StepWrite = {
  stepId: string;
  /** The version the edit started from; the write lands only if the row still holds it, and makes it version + 1. */
  version: number;
  /** What the step now holds, as its columns (stepAnnotationColumns). */
  columns: ReturnType<typeof stepAnnotationColumns>;
  provenanceJson: string | null;
  at: Date;
  /** A further condition on the write (the annotator's: the trajectory's status and assignee are still as checked). */
  guard?: Prisma.Sql;
};

/**
 * The one write of an edited step, in plain SQL that both dialects run as written (Prisma's updateMany costs several
 * times the write on the save's hot path): true when it landed, false when the row moved on since it was read.
 */
export async function writeStepAnnotation(exec: Exec, w: StepWrite): Promise<boolean> {
  const data = w.columns;
  const count = await exec(Prisma.sql`
    UPDATE "Step" SET "thoughtState" = ${data.thoughtState}, "thoughtNext" = ${data.thoughtNext}, "thoughtPurpose" = ${data.thoughtPurpose},
      "thought" = ${data.thought}, "clearAction" = ${data.clearAction}, "toolCallJson" = ${data.toolCallJson}, "boxJson" = ${data.boxJson},
      "verdict" = ${data.verdict}, "provenanceJson" = ${w.provenanceJson}, "version" = "version" + 1, "updatedAt" = ${w.at}
    WHERE "id" = ${w.stepId} AND "version" = ${w.version}${w.guard ? Prisma.sql` AND ${w.guard}` : Prisma.empty}`);
  return count === 1;
}
