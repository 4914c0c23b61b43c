export type Duration = { name: string; ms: number };
export type Tally = {
  passed: number;
  failed: number;
  skipped: string[];
  failures: string[];
  flaky: string[];
  durations: Duration[];
  /** Tests each Playwright pass ran, by label. */
  ran: Record<string, number>;
};
export function readReports(reports: { root: string; vitest: string; playwright: { file: string; label: string }[] }): Tally;
export function timeTable(stages: { label: string; seconds: number }[], durations: Duration[], count?: number): string[];
