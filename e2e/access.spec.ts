import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_ACCOUNTS, type DemoRole } from "./accounts";
import { importViaApi } from "./datasets";

/** A browser with no session at all. */
async function anonymousPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  return context.newPage();
}

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const EXPECTED_NAV: Record<DemoRole, string[]> = {
  admin: [
    "My tasks",
    "Trajectories",
    "Review",
    "Progress",
    "Import",
    "Export",
    "Releases",
    "Evaluation",
    "People",
    "Audit",
    "Model",
    "Projects",
  ],
  reviewer: ["Trajectories", "Review", "Progress"],
  annotator: ["My tasks", "Trajectories"],
};

for (const account of DEMO_ACCOUNTS) {
  test(`${account.role}: signs in, sees exactly their pages, signs out @storage`, async ({ browser, baseURL }) => {
    const page = await anonymousPage(browser, baseURL!);
    await page.goto("/trajectories");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Ftrajectories/);
    await signInThroughForm(page, account.email, account.password);
    await expect(page).toHaveURL(/\/trajectories$/);

    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(EXPECTED_NAV[account.role]);

    await page.goto("/import");
    if (account.role === "admin") await expect(page.getByRole("heading", { name: "Import trajectories" })).toBeVisible();
    else await expect(page.getByRole("heading", { name: "Not allowed" }).or(page.getByText("Not allowed", { exact: true }))).toBeVisible();

    const api = await page.request.get("/api/imports");
    expect(api.status()).toBe(account.role === "admin" ? 200 : 403);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/trajectories");
    await expect(page).toHaveURL(/\/sign-in/);
    expect((await page.request.get("/api/stats")).status()).toBe(401);
    await page.context().close();
  });
}

test("an annotator sees only the trajectories assigned to them @storage", async ({ browser, baseURL, request }) => {
  const all = (await (await request.get("/api/stats")).json()) as { trajectories: number };
  const page = await anonymousPage(browser, baseURL!);
  await page.goto("/sign-in");
  await signInThroughForm(page, "annotator@studio.local", "studio-annotator");
  await expect(page).toHaveURL(/\/trajectories$/);
  const own = (await (await page.request.get("/api/stats")).json()) as { trajectories: number };
  expect(own.trajectories).toBeGreaterThan(0);
  expect(own.trajectories).toBeLessThan(all.trajectories);
  await expect(page.getByText(`${own.trajectories} matching`)).toBeVisible();

  // Someone else's trajectory: refused by the API, whatever the page shows.
  const list = (await (await request.get("/api/trajectories?pageSize=200")).json()) as { rows: { id: string; assignee: string | null }[] };
  const other = list.rows.find((r) => r.assignee !== "annotator@studio.local")!;
  expect((await page.request.get(`/api/trajectories/${other.id}`)).status()).toBe(403);
  await page.context().close();
});

test("a wrong password is refused with a clear message @storage", async ({ browser, baseURL }) => {
  const page = await anonymousPage(browser, baseURL!);
  await page.goto("/sign-in");
  await signInThroughForm(page, "reviewer@studio.local", "not-the-password");
  await expect(page.locator(".auth-error")).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/sign-in/);
  await page.context().close();
});

test("markup in a thought or instruction is shown as text and runs nothing @storage", async ({ page, request, baseURL }) => {
  const payload = `<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">`;
  const goal = `XSS probe <b onmouseover="window.__xss = 3">bold?</b> ${Date.now()}`;
  const line = JSON.stringify({
    goal,
    is_successful: true,
    steps: [
      {
        action_content: { action: "click", coordinate: [100, 100] },
        screenshot: "/x/xss.png",
        thought: payload,
        action_description: payload,
      },
    ],
  });
  const sharp = (await import("sharp")).default;
  const png = await sharp({ create: { width: 1080, height: 2400, channels: 3, background: "#ddeeff" } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("format", "ui-s1");
  form.append("files", new Blob([`${line}\n`]), "xss.jsonl");
  form.append("files", new Blob([png]), "xss.png");
  expect((await importViaApi(request, baseURL!, form)).state).toBe("succeeded");

  let dialogs = 0;
  page.on("dialog", (d) => {
    dialogs += 1;
    void d.dismiss();
  });
  const list = (await (await request.get(`/api/trajectories?q=${encodeURIComponent("XSS probe")}`)).json()) as {
    rows: { id: string; instruction: string }[];
  };
  const row = list.rows.find((r) => r.instruction === goal)!;
  const response = await page.goto(`/trajectories/${row.id}`);
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self' 'nonce-");
  await expect(page.getByText(goal)).toBeVisible();
  await expect(page.getByText(payload).first()).toBeVisible();
  await page.getByText(goal).hover();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator("img[src='x']").count()).toBe(0);
  expect(dialogs).toBe(0);
});
