import { expect, request as apiRequest, test } from "@playwright/test";
import { storageStateFor } from "./accounts";
import { AccountPage } from "./pages/account-page";
import { PeoplePage } from "./pages/people-page";

test.describe("as annotator", () => {
  test.use({ storageState: storageStateFor("annotator") });

  test("a token created on the account page works as a Bearer token, acts as its owner, and stops at once when revoked", async ({
    page,
    request,
    baseURL,
  }) => {
    const account = new AccountPage(page);
    const name = `e2e-token-${Date.now()}`;
    await account.goto();
    const token = await account.createToken(name);
    expect(token).toMatch(/^studio_[\w-]{40,}$/);
    await expect(account.tokenRow(name)).toContainText(token.slice(0, 12));
    await expect(account.tokenRow(name)).toContainText("never");
    // The plain token is not shown again after a reload.
    await page.reload();
    await expect(page.getByText(token)).toHaveCount(0);

    const bearer = await apiRequest.newContext({
      baseURL,
      storageState: { cookies: [], origins: [] },
      extraHTTPHeaders: { authorization: `Bearer ${token}` },
    });
    const viaToken = await bearer.get("/api/stats");
    expect(viaToken.status()).toBe(200);
    // Same answer as the annotator's own session: the token acts as them (their own work only).
    expect(await viaToken.json()).toEqual(await (await request.get("/api/stats")).json());
    expect((await bearer.get("/api/users")).status()).toBe(403);
    await page.reload();
    await expect(account.tokenRow(name)).not.toContainText("never");

    // The admin sees it among everyone's tokens.
    const admin = await page
      .context()
      .browser()!
      .newContext({ baseURL, storageState: storageStateFor("admin") });
    const people = new PeoplePage(await admin.newPage());
    await people.goto();
    await expect(people.allTokens.getByRole("row").filter({ hasText: name })).toContainText("annotator@studio.local");
    await admin.close();

    await account.revokeToken(name);
    expect((await bearer.get("/api/stats")).status()).toBe(401);
    await bearer.dispose();
  });
});

test("a person switches the studio to Chinese and changes their password; both stick", async ({ browser, baseURL, request }) => {
  const email = `e2e-locale-${Date.now()}@studio.local`;
  const first = "first-password-1";
  const created = await request.post("/api/users", { data: { email, role: "annotator", password: first }, headers: { origin: baseURL! } });
  expect(created.status()).toBe(201);

  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/sign-in?next=/account");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(first);
  await page.getByRole("button", { name: "Sign in" }).click();
  // A sign-in (the password's hash) on a busy machine may take more than the default wait.
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible({ timeout: 30_000 });

  const account = new AccountPage(page);
  await account.setLanguage("简体中文", "Save language");
  await expect(page.getByRole("heading", { name: "你的账户" })).toBeVisible();
  await expect(page.getByRole("button", { name: "退出登录" })).toBeVisible();
  await page.goto("/trajectories");
  await expect(page.getByRole("navigation", { name: "主导航" }).getByRole("link", { name: "轨迹" })).toBeVisible();
  expect(((await (await page.request.get("/api/me")).json()) as { person: { locale: string } }).person.locale).toBe("zh");
  await account.goto();
  await account.setLanguage("English", "保存语言");
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();

  // A wrong current password or a mismatch changes nothing.
  await account.changePassword("not-my-password", "second-password-2");
  await expect(page.getByRole("alert").filter({ hasText: "The current password is wrong." })).toBeVisible();
  await account.changePassword(first, "second-password-2", "second-password-3");
  await expect(page.getByRole("alert").filter({ hasText: "The new passwords do not match." })).toBeVisible();
  await account.changePassword(first, "second-password-2");
  await expect(page.getByRole("status").filter({ hasText: "Password changed" })).toBeVisible();

  // Signed out, the old password is refused and the new one works.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  const oldTry = await page.request.post("/api/auth/sign-in/email", { data: { email, password: first }, headers: { origin: baseURL! } });
  expect(oldTry.status()).toBe(401);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("second-password-2");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/trajectories$/, { timeout: 30_000 });
  await context.close();
});
