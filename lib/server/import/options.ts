// What an import is asked (its options) and answers (its result and progress), and the limits callers see.
import type { CoordinateFrame, ImportFormat } from "@/lib/domain/import-formats";
import type { ImportProblem } from "@/lib/domain/problems";
import type { OtherProjectChoice, OtherProjectCopies } from "@/lib/domain/imports";
import type { Db } from "../db";
import type { AuditActor } from "../people";

export type ImportOptions = {
  file: string;
  format: ImportFormat;
  /** Folder screenshots are looked up in, by file name. Default: <file's folder>/images, else the file's folder. */
  screenshotsDir?: string;
  project?: string;
  frame?: CoordinateFrame;
  /** Trajectories already in another project: ask first (nothing is written), import them anyway, or skip them. Default: import. */
  onOtherProjects?: OtherProjectChoice;
  /** Name recorded on the batch (an upload's original file name). */
  displayName?: string;
  onProgress?: (p: ImportProgress) => void;
  /** Who runs it, for the batch and the audit trail (default: the command line). */
  actor?: AuditActor;
  db?: Db;
};

export type ImportProgress = { phase: "checking" | "writing" | "committing"; lines: number; trajectories: number; steps: number };

export type ImportResult =
  | {
      ok: true;
      batchId: string;
      project: string;
      trajectories: number;
      steps: number;
      duplicates: number;
      screenshots: number;
      /** Trajectories of the file already in other projects, by project: imported as copies or skipped, as `onOtherProjects` says. */
      otherProjects: OtherProjectCopies;
      onOtherProjects: OtherProjectChoice;
    }
  /**
   * `problems` holds the first MAX_PROBLEMS problems; `problemCount` counts them all. With no problem
   * and `asked` set, the import stopped to ask (onOtherProjects "ask"): `asked` says which other
   * projects already hold how many of the file's trajectories. Nothing was written either way.
   */
  | { ok: false; problems: ImportProblem[]; problemCount: number; trajectories: number; steps: number; asked?: OtherProjectCopies };

export const DEFAULT_PROJECT = "default";
/** Problems kept in a failed import's answer (the count stays exact): a junk file has millions. */
export const MAX_PROBLEMS = 1000;
/** Longest problem message kept, in characters. */
export const MAX_PROBLEM_CHARS = 500;
/** Longest JSONL line read, in bytes: a longer line is one problem, never held in memory. */
export const MAX_LINE_BYTES = 16 * 1024 ** 2;
/** A running import silent for this long was interrupted (killed, crashed): its batch is failed and its staged rows deleted. */
export const STALE_IMPORT_MS = 10 * 60_000;
