import { expect, type Locator, type Page } from "@playwright/test";

/** The trajectory list: counts, filters, the table. */
export class TrajectoryListPage {
  constructor(readonly page: Page) {}

  async goto(query = "") {
    await this.page.goto(`/trajectories${query}`);
    // The first page a fresh browser opens on a busy machine can take over the default 5 s to ask for its rows.
    await expect(this.table.or(this.page.getByText("No trajectories"))).toBeVisible({ timeout: 30_000 });
  }

  get table(): Locator {
    return this.page.getByRole("table");
  }

  /** Data rows (the header row excluded). */
  get rows(): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("cell") });
  }

  get appFilter(): Locator {
    return this.page.getByRole("combobox", { name: "App", exact: true });
  }

  get matching(): Locator {
    return this.page.getByRole("status", { name: "Matching trajectories" });
  }

  /** The number on a stat tile ("Trajectories", "Steps", "Apps", "New", ...). */
  async count(label: string): Promise<number> {
    const tile = this.page.getByRole("list", { name: "Counts" }).getByRole("listitem", { name: new RegExp(`^${label}: [\\d,]+$`) });
    await expect(tile).toBeVisible();
    const text = (await tile.getAttribute("aria-label")) ?? "";
    return Number(text.split(": ")[1]!.replace(/,/g, ""));
  }

  async filterByApp(app: string) {
    await this.appFilter.selectOption(app);
    await expect(this.page).toHaveURL(new RegExp(`[?&]app=${encodeURIComponent(app).replace(/%20/g, "(\\+|%20)")}`));
  }

  async search(text: string) {
    await this.page.getByRole("searchbox").fill(text);
    await this.page.getByRole("button", { name: "Search" }).click();
  }

  async openTrajectory(instruction: string | RegExp) {
    await this.table.getByRole("link", { name: instruction }).first().click();
  }
}
