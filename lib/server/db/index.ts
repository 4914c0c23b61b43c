// The db capability's public face: the rest of the studio imports it from here, never from the files beside
// this one (the lint's capability rule). Its main use cases live in client.ts.
export * from "./client";
export { timeOrderedId } from "./bulk/ids";
export { type BulkWriter, openBulkWriter, type StagedChunk } from "./bulk/index";
export { TaskPool } from "./bulk/pool";
export { migrate } from "./migrate";
export { originalColumn, readOriginalColumn } from "./original-column";
export { Prisma } from "./prisma-namespace";
export { keptStatement, SQLITE_BUSY_TIMEOUT_MS, type Statement, writeLockFor } from "./sqlite";
