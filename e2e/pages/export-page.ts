import { expect, type Locator, type Page } from "@playwright/test";

/** The admin's export page. */
export class ExportPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/export");
    await expect(this.page.getByRole("heading", { name: "Export a dataset" })).toBeVisible();
  }

  async start(opts: { status: "approved" | "submitted" | "all"; apps?: string[]; split?: string }) {
    const form = this.page.getByRole("form", { name: "Export" });
    await form.getByLabel("Trajectories").selectOption(opts.status);
    if (opts.apps) await form.getByLabel("Apps").selectOption(opts.apps);
    if (opts.split) await form.getByLabel("Split (optional)").fill(opts.split);
    await form.getByRole("button", { name: "Start export" }).click();
  }

  get current(): Locator {
    return this.page.getByRole("region", { name: "Current export" });
  }

  get progressBar(): Locator {
    return this.current.getByRole("progressbar", { name: "Export progress" });
  }

  get list(): Locator {
    return this.page.getByRole("list", { name: "Exports" });
  }

  entry(id: string): Locator {
    return this.list.getByRole("listitem", { name: id });
  }

  /** The number under a count label ("Trajectories", "Steps", "train" ...) of an export. */
  async count(id: string, label: string): Promise<number> {
    const text = await this.entry(id)
      .locator("dt", { hasText: new RegExp(`^${label}$`) })
      .locator("+ dd")
      .textContent();
    return Number(text!.replace(/[^\d]/g, ""));
  }
}
