import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_ACCOUNTS } from "./accounts";

// Issue 11, finding 3: `/sign-in?next=/.//evil.example` (and /..//, /%2e//, /a/..//) answered
// `location: //evil.example` and a real browser landed off-site after signing in. Every variant
// here must leave the browser on the studio, signed in through the form or already signed in.
const VARIANTS = [
  "/.//evil.example",
  "/..//evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "/a/..//evil.example",
  "//evil.example",
  "/\\evil.example",
  "/.\\/evil.example",
  "/%5c/evil.example",
  "https://evil.example/",
];

const reviewer = DEMO_ACCOUNTS.find((a) => a.role === "reviewer")!;

async function anonymousPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  return context.newPage();
}

for (const next of VARIANTS) {
  test(`signing in with next=${next} stays on the studio`, async ({ browser, baseURL }) => {
    const studio = new URL(baseURL!).host;
    const page = await anonymousPage(browser, baseURL!);
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await page.getByLabel("Email").fill(reviewer.email);
    await page.getByLabel("Password").fill(reviewer.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible({ timeout: 30_000 });
    expect(new URL(page.url()).host).toBe(studio);

    // Signed in now: the server-side redirect of the sign-in page must stay on the studio too...
    const res = await page.request.get(`/sign-in?next=${encodeURIComponent(next)}`, { maxRedirects: 0 });
    const location = res.headers()["location"] ?? "";
    expect(location.startsWith("//")).toBe(false);
    expect(new URL(location, baseURL).host).toBe(studio);
    // ...and so must a browser following it.
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    expect(new URL(page.url()).host).toBe(studio);
    await page.context().close();
  });
}

test("a plain next path is still honoured after sign-in", async ({ browser, baseURL }) => {
  const page = await anonymousPage(browser, baseURL!);
  await page.goto(`/sign-in?next=${encodeURIComponent("/reviews")}`);
  await page.getByLabel("Email").fill(reviewer.email);
  await page.getByLabel("Password").fill(reviewer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/reviews$/, { timeout: 30_000 });
  await page.context().close();
});
