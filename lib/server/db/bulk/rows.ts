// The rows an import stages (ImportStaged* in prisma/schema.prisma), with each column's SQL type, in one
// place for both dialects' bulk writers. A column added to a staged table in the schema is added here.

export type StagedScreenshotRow = {
  batchId: string;
  sha256: string;
  width: number;
  height: number;
  bytes: number;
  mime: string;
  /** The dHash (16 hex digits) the import's decode made; null when none was made. */
  dhash: string | null;
};

export type StagedTrajectoryRow = {
  id: string;
  batchId: string;
  fingerprint: string;
  source: string;
  sourceRef: string | null;
  app: string;
  instruction: string;
  systemPrompt: string | null;
  status: string;
  outcome: string | null;
  originalOutcome: string | null;
  isDiscarded: boolean;
  cutAfter: number | null;
  stepCount: number;
  metaJson: string;
};

export type StagedStepRow = {
  id: string;
  batchId: string;
  trajectoryId: string;
  index: number;
  screenshotSha: string;
  originalJson: string;
  thoughtState: string;
  thoughtNext: string;
  thoughtPurpose: string;
  thought: string;
  clearAction: string;
  toolCallJson: string;
  boxJson: string | null;
  candidateBoxJson: string;
  verdict: string;
  provenanceJson: string | null;
  version: number;
};

/** One write: the screenshots, trajectories and steps of a few trajectories. */
export type StagedChunk = { screenshots: StagedScreenshotRow[]; trajectories: StagedTrajectoryRow[]; steps: StagedStepRow[] };

export type ColumnType = "text" | "int" | "bool";
export type Table<R> = { name: string; columns: { [K in keyof R]-?: ColumnType } };

export const STAGED_SCREENSHOT: Table<StagedScreenshotRow> = {
  name: "ImportStagedScreenshot",
  columns: { batchId: "text", sha256: "text", width: "int", height: "int", bytes: "int", mime: "text", dhash: "text" },
};

export const STAGED_TRAJECTORY: Table<StagedTrajectoryRow> = {
  name: "ImportStagedTrajectory",
  columns: {
    id: "text",
    batchId: "text",
    fingerprint: "text",
    source: "text",
    sourceRef: "text",
    app: "text",
    instruction: "text",
    systemPrompt: "text",
    status: "text",
    outcome: "text",
    originalOutcome: "text",
    isDiscarded: "bool",
    cutAfter: "int",
    stepCount: "int",
    metaJson: "text",
  },
};

export const STAGED_STEP: Table<StagedStepRow> = {
  name: "ImportStagedStep",
  columns: {
    id: "text",
    batchId: "text",
    trajectoryId: "text",
    index: "int",
    screenshotSha: "text",
    originalJson: "text",
    thoughtState: "text",
    thoughtNext: "text",
    thoughtPurpose: "text",
    thought: "text",
    clearAction: "text",
    toolCallJson: "text",
    boxJson: "text",
    candidateBoxJson: "text",
    verdict: "text",
    provenanceJson: "text",
    version: "int",
  },
};

export function columnNames<R>(t: Table<R>): (keyof R & string)[] {
  return Object.keys(t.columns) as (keyof R & string)[];
}

/** Writes staged rows straight through the database driver (one module per dialect). */
export interface BulkWriter {
  /** Write one chunk, all or nothing, as one short transaction. */
  write(chunk: StagedChunk): Promise<void>;
  close(): Promise<void>;
}
