// The annotate capability's public face: the rest of the studio imports it from here, never from the files beside
// this one (the lint's capability rule). Its main use cases live in annotation.ts.
export * from "./annotation";
export { assignablePeople, assignTrajectories } from "./assign";
export { getDashboard } from "./dashboard";
export { effortFigures, recordEffort } from "./effort";
export { listProjectLanes, setProjectLane, submitFastLane } from "./fast-lane";
export { goldAccuracy, listGoldRates, markGold, setGoldRate } from "./gold";
export { nearDuplicateMembership } from "./near-duplicates";
export { agreementFigures, overlapTrajectories } from "./overlap";
export { provenanceAfterSave, storedProvenance } from "./provenance";
export { stepAnnotationColumns, writeStepAnnotation } from "./step-row";
export { suggestionView, type SuggestionRow } from "./suggestion-row";
export { listMyTasks, startNextTask } from "./tasks";
export { getScreenshot, getTrajectory, getTrajectoryFor, stepFromRow } from "./trajectories";
export { getStats, listTrajectories } from "./trajectory-list";
