// What the export's link thread (export-links.worker.ts) answers, shared by it and export-links.ts: a
// module of constants only, so bundling it into the worker pulls in nothing else.

/** What became of one screenshot: placed now, already there (placed before), or missing from the store. */
export const PLACED = 1;
export const ALREADY_THERE = 0;
export const NOT_STORED = -1;

/** Two outcomes per triple sent (dest, alsoDest), or the failure that stopped the batch. */
export type LinkReply = Int8Array | { error: { message: string; code?: string } };
