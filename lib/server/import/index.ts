// The import capability's public face: the rest of the studio imports it from here, never from the files beside
// this one (the lint's capability rule). Its main use cases live in import-file.ts.
export * from "./import-file";
export { getImportJob, IMPORT_JOBS, listImportJobs, runImportJob, seededTrajectories, startUploadImport } from "./jobs";
