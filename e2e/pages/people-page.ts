import { expect, type Locator, type Page } from "@playwright/test";

/** The admin's people page: add people, change roles, disable, reset passwords, everyone's tokens. */
export class PeoplePage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/admin/people");
    await expect(this.page.getByRole("heading", { name: "People", exact: true })).toBeVisible();
    await expect(this.table).toBeVisible();
  }

  get table(): Locator {
    return this.page.getByRole("table", { name: "Everyone with an account" });
  }

  row(email: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("cell", { name: email }) });
  }

  /** Add a person and return the password the page shows once. */
  async addPerson(p: { email: string; name?: string; role: "admin" | "reviewer" | "annotator"; password?: string }): Promise<string> {
    const form = this.page.getByRole("region", { name: "Add a person" });
    await form.getByLabel("Email").fill(p.email);
    if (p.name) await form.getByLabel("Name").fill(p.name);
    await form.getByLabel("Role").selectOption(p.role);
    if (p.password) await form.getByLabel("Password (optional)").fill(p.password);
    await form.getByRole("button", { name: "Add person" }).click();
    return this.shownSecret(`Password for ${p.email}`);
  }

  /** Pick the role and wait for the server's answer (its status): the list shows the pick at once, before it is saved. */
  async setRole(email: string, role: "admin" | "reviewer" | "annotator") {
    const saved = this.page.waitForResponse(
      (r) => r.request().method() === "PATCH" && /\/api\/users\/[^/]+$/.test(new URL(r.url()).pathname),
    );
    await this.page.getByRole("combobox", { name: `Role of ${email}` }).selectOption(role);
    return (await saved).status();
  }

  async disable(email: string) {
    await this.page.getByRole("button", { name: `Disable ${email}` }).click();
    await expect(this.row(email).getByText("disabled", { exact: true })).toBeVisible();
  }

  async enable(email: string) {
    await this.page.getByRole("button", { name: `Enable ${email}` }).click();
    await expect(this.row(email).getByText("active", { exact: true })).toBeVisible();
  }

  /** Reset a person's password and return the new one. */
  async resetPassword(email: string): Promise<string> {
    await this.row(email).getByRole("button", { name: "Reset password" }).click();
    await this.row(email).getByRole("button", { name: "Reset and sign out" }).click();
    return this.shownSecret(`New password for ${email}`);
  }

  async shownSecret(label: string): Promise<string> {
    const secret = this.page.getByRole("status", { name: label });
    await expect(secret).toBeVisible();
    return (await secret.locator("code").textContent())!.trim();
  }

  get allTokens(): Locator {
    return this.page.getByRole("table", { name: "Everyone's API tokens" });
  }
}
