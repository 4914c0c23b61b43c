import { expect, type Locator, type Page } from "@playwright/test";

/** The admin's audit trail browser. */
export class AuditPage {
  constructor(readonly page: Page) {}

  async goto(query = "") {
    await this.page.goto(`/admin/audit${query}`);
    await expect(this.page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
  }

  async filter(f: { action?: string; entityType?: string; entityId?: string; actor?: string; from?: string; to?: string }) {
    const bar = this.page.getByRole("search");
    if (f.action !== undefined) await bar.getByLabel("Action").selectOption(f.action);
    if (f.entityType !== undefined) await bar.getByLabel("Entity type").selectOption(f.entityType);
    if (f.entityId !== undefined) await bar.getByLabel("Entity id").fill(f.entityId);
    if (f.actor !== undefined) await bar.getByLabel("Actor").fill(f.actor);
    if (f.from !== undefined) await bar.getByLabel("From").fill(f.from);
    if (f.to !== undefined) await bar.getByLabel("To (inclusive)").fill(f.to);
    await bar.getByRole("button", { name: "Apply" }).click();
  }

  get table(): Locator {
    return this.page.getByRole("table", { name: "Audit events" });
  }

  get rows(): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("cell") });
  }

  get matching(): Locator {
    return this.page.getByRole("status", { name: "Matching events" });
  }
}
