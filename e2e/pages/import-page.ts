import { expect, type Locator, type Page } from "@playwright/test";

/** The admin import page. */
export class ImportPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/import");
    await expect(this.page.getByRole("heading", { name: "Import trajectories" })).toBeVisible();
  }

  async upload(files: string[], opts: { format: "mobile-r1" | "ui-s1" | "studio"; project?: string }) {
    await this.page.getByLabel(/^Files/).setInputFiles(files);
    await this.page.getByRole("combobox", { name: "Format" }).selectOption(opts.format);
    if (opts.project) await this.page.getByRole("textbox", { name: "Project" }).fill(opts.project);
    await this.page.getByRole("button", { name: "Import" }).click();
  }

  get result(): Locator {
    return this.page.getByLabel("Import result");
  }

  /** The list of every problem (one row each). */
  get problems(): Locator {
    return this.result
      .getByRole("table", { name: "Every problem listed" })
      .getByRole("row")
      .filter({ has: this.page.getByRole("cell") });
  }

  /** The summary above the list: one row per kind of problem, with its count. */
  get problemKinds(): Locator {
    return this.result
      .getByRole("table", { name: "Problems by kind" })
      .getByRole("row")
      .filter({ has: this.page.getByRole("cell") });
  }

  get recentImports(): Locator {
    return this.page.getByRole("region", { name: "Recent imports" });
  }
}
