import { expect, type Locator, type Page } from "@playwright/test";

/** Anyone's account page: language, password, own API tokens. */
export class AccountPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/account");
    await expect(this.page.locator("h1")).toBeVisible();
  }

  get tokens(): Locator {
    return this.page.getByRole("table", { name: "Your API tokens" });
  }

  tokenRow(name: string): Locator {
    return this.tokens.getByRole("row").filter({ has: this.page.getByRole("cell", { name, exact: true }) });
  }

  /** Create a token and return its value, shown once. */
  async createToken(name: string): Promise<string> {
    await this.page.getByLabel("Name of a new token").fill(name);
    await this.page.getByRole("button", { name: "Create token" }).click();
    const secret = this.page.getByRole("status", { name: `New token “${name}”` });
    await expect(secret).toBeVisible();
    return (await secret.locator("code").textContent())!.trim();
  }

  async revokeToken(name: string) {
    await this.tokenRow(name).getByRole("button", { name: "Revoke" }).click();
    await this.tokenRow(name).getByRole("button", { name: "Revoke now" }).click();
    await expect(this.tokenRow(name).getByText("revoked", { exact: true })).toBeVisible();
  }

  /** Pick a language by its own name ("English", "简体中文") and save; the page reloads in it. */
  async setLanguage(label: "English" | "简体中文", saveButton: string) {
    await this.page.locator("#language-title ~ form select").selectOption({ label });
    await this.page.getByRole("button", { name: saveButton }).click();
  }

  async changePassword(current: string, next: string, repeat = next) {
    await this.page.getByLabel("Current password").fill(current);
    await this.page.getByLabel("New password", { exact: true }).fill(next);
    await this.page.getByLabel("Repeat new password").fill(repeat);
    await this.page.getByRole("button", { name: "Change password" }).click();
  }
}
