// The export capability's public face: the rest of the studio imports it from here, never from the files beside
// this one (the lint's capability rule). Its main use cases live in dataset.ts.
export * from "./dataset";
export { toCsv } from "./csv";
export { EXPORT_JOBS, recoverExportJobs } from "./job-kind";
export { runCliExport, startExportJob } from "./jobs";
export { getExport, listExports } from "./listing";
export { diffReleases } from "./release-diff";
export { exportEvalSet, exportRelease } from "./release";
export { cutRelease, findEvalSet, freezeEvalSet, listSnapshots, recordOf, setHeldOut, showSnapshot } from "./snapshots";
export { parseSplit } from "./split";
