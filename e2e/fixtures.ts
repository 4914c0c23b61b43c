import { test as base } from "@playwright/test";
import { ImportPage } from "./pages/import-page";
import { StepViewerPage } from "./pages/step-viewer-page";
import { TrajectoryListPage } from "./pages/trajectory-list-page";

export const test = base.extend<{ list: TrajectoryListPage; viewer: StepViewerPage; importPage: ImportPage }>({
  list: async ({ page }, use) => use(new TrajectoryListPage(page)),
  viewer: async ({ page }, use) => use(new StepViewerPage(page)),
  importPage: async ({ page }, use) => use(new ImportPage(page)),
});
export { expect } from "@playwright/test";
