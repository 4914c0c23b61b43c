import { expect, request as apiRequest, test, type Browser, type Page } from "@playwright/test";
import { storageStateFor } from "./accounts";
import { AuditPage } from "./pages/audit-page";
import { ExportPage } from "./pages/export-page";
import { PeoplePage } from "./pages/people-page";

/** A new browser with no session, signed in through the form. */
async function signInFresh(browser: Browser, baseURL: string, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/trajectories$/, { timeout: 30_000 });
  return page;
}

test("an admin adds a person who signs in; role changes and resets reach their session; disabling shuts them out at once @storage", async ({
  page,
  browser,
  baseURL,
}) => {
  const people = new PeoplePage(page);
  const email = `e2e-person-${Date.now()}@studio.local`;
  await people.goto();
  const password = await people.addPerson({ email, name: "E2E Person", role: "annotator" });
  expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
  await expect(people.row(email)).toContainText("E2E Person");
  await expect(people.row(email).getByText("active", { exact: true })).toBeVisible();

  const them = await signInFresh(browser, baseURL!, email, password);
  await expect(them.locator(".role-chip")).toHaveText("annotator");
  await expect(them.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "People" })).toHaveCount(0);
  expect((await them.request.get("/api/users")).status()).toBe(403);

  // A role change applies to the session they already have.
  expect(await people.setRole(email, "reviewer")).toBe(200);
  await expect(page.getByRole("combobox", { name: `Role of ${email}` })).toHaveValue("reviewer");
  await them.reload();
  await expect(them.locator(".role-chip")).toHaveText("reviewer");

  // A reset signs them out; the new password (shown once) works, the old one is gone.
  const next = await people.resetPassword(email);
  expect(next).not.toBe(password);
  expect((await them.request.get("/api/stats")).status()).toBe(401);
  await them.context().close();
  const again = await signInFresh(browser, baseURL!, email, next);
  expect((await again.request.get("/api/stats")).status()).toBe(200);

  // Disabling refuses the live session at once, for pages and the API.
  await people.disable(email);
  expect((await again.request.get("/api/stats")).status()).toBe(401);
  await again.goto("/trajectories");
  await expect(again).toHaveURL(/\/sign-in/);
  await again.context().close();

  // The audit trail shows each of these steps for this person, newest first, with the fields they changed.
  const audit = new AuditPage(page);
  await audit.goto();
  await audit.filter({ entityType: "user", actor: "admin@studio.local" });
  // Actions and fields read in words (issue 36), not as the identifiers the trail records.
  const created = audit.rows.filter({ hasText: "Person added" }).filter({ hasText: email });
  await expect(created).toHaveCount(1);
  await created.getByRole("button", { name: /./ }).click(); // the entity id: this person's history only
  await expect(audit.page).toHaveURL(/entityId=/);
  await expect(audit.rows.locator("td:nth-child(3)")).toHaveText([
    "Person disabled",
    "Signed in",
    "Password reset",
    "Person changed",
    "Signed in",
    "Person added",
  ]);
  await expect(audit.rows.filter({ hasText: "Person changed" })).toContainText("role: annotator → reviewer");
  await expect(audit.rows.filter({ hasText: "Person disabled" })).toContainText("disabled: no → yes");
  await expect(audit.rows.filter({ hasText: "Person added" })).toContainText(`email: ${email}`);
  await expect(audit.matching).toHaveText("6 events");
});

test("the last admin cannot be demoted, and the page says why @storage", async ({ page }) => {
  const people = new PeoplePage(page);
  await people.goto();
  expect(await people.setRole("admin@studio.local", "annotator")).toBeGreaterThanOrEqual(400);
  await expect(page.getByRole("alert").filter({ hasText: "this is the last active admin" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Role of admin@studio.local" })).toHaveValue("admin");
  // The admin's own account cannot be disabled from the page.
  await expect(page.getByRole("button", { name: "Disable admin@studio.local" })).toBeDisabled();
});

test("an admin sees and revokes someone else's API token @storage", async ({ page, baseURL }) => {
  const reviewer = await apiRequest.newContext({ baseURL, storageState: storageStateFor("reviewer") });
  const name = `reviewer-pipeline-${Date.now()}`;
  const created = await reviewer.post("/api/tokens", { data: { name }, headers: { origin: baseURL! } });
  expect(created.status()).toBe(201);
  const { token } = (await created.json()) as { token: string };
  const bearer = await apiRequest.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  expect((await bearer.get("/api/stats")).status()).toBe(200);

  const people = new PeoplePage(page);
  await people.goto();
  const row = people.allTokens.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("reviewer@studio.local");
  await row.getByRole("button", { name: "Revoke" }).click();
  await row.getByRole("button", { name: "Revoke now" }).click();
  await expect(row.getByText("revoked", { exact: true })).toBeVisible();
  expect((await bearer.get("/api/stats")).status()).toBe(401);

  // The reviewer may not revoke (or even see) anyone else's token.
  const adminTokens = (await (await page.request.get("/api/tokens?scope=all")).json()) as {
    tokens: { id: string; userEmail: string; revokedAt: string | null }[];
  };
  const someoneElse = adminTokens.tokens.find((t) => t.userEmail !== "reviewer@studio.local");
  expect((await reviewer.get("/api/tokens?scope=all")).status()).toBe(403);
  if (someoneElse) expect((await reviewer.delete(`/api/tokens/${someoneElse.id}`, { headers: { origin: baseURL! } })).status()).toBe(404);
  await reviewer.dispose();
  await bearer.dispose();
});

test("the audit trail filters by action and date and says when nothing matches @storage", async ({ page }) => {
  const audit = new AuditPage(page);
  await audit.goto();
  await expect(audit.rows.first()).toBeVisible();
  await audit.filter({ action: "auth.sign_in" });
  await expect(page).toHaveURL(/action=auth.sign_in/);
  const { total } = (await (await page.request.get("/api/audit?action=auth.sign_in")).json()) as { total: number };
  expect(total).toBeGreaterThan(0);
  await expect(audit.matching).toHaveText(total === 1 ? "1 event" : `${total} events`);
  await expect(audit.rows.locator("td:nth-child(3)")).toHaveText(Array(Math.min(total, 50)).fill("Signed in"));
  await audit.filter({ from: "2999-01-01", to: "2999-01-02" });
  await expect(audit.page.getByText("No events match these filters")).toBeVisible();
  await expect(audit.page).toHaveURL(/action=auth.sign_in.*from=2999-01-01/);
  await audit.page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(audit.rows.first()).toBeVisible();
});

test("an export runs in the background to completion and lists its counts and the bridge command @storage", async ({ page, request }) => {
  const stats = (await (await request.get("/api/stats")).json()) as { trajectories: number; steps: number };
  const exporter = new ExportPage(page);
  await exporter.goto();
  await exporter.start({ status: "all", split: "random:7:0.5,0.5" });
  await expect(exporter.progressBar).toBeVisible();
  await expect(exporter.current.getByRole("heading")).toHaveText("Export finished", { timeout: 30_000 });
  await expect(exporter.progressBar).toHaveAttribute("aria-valuenow", "100");
  await expect(exporter.current).toContainText(`${stats.trajectories} of ${stats.trajectories} trajectories (100%)`);

  const { exports } = (await (await request.get("/api/exports")).json()) as { exports: { id: string; outDir: string; state: string }[] };
  const latest = exports[0]!;
  expect(latest).toMatchObject({ state: "succeeded" });
  expect(latest.id).toMatch(/-all$/);
  await expect(exporter.entry(latest.id)).toBeVisible();
  expect(await exporter.count(latest.id, "Trajectories")).toBe(stats.trajectories);
  expect(await exporter.count(latest.id, "Steps")).toBe(stats.steps);
  expect((await exporter.count(latest.id, "train")) + (await exporter.count(latest.id, "test"))).toBe(stats.trajectories);
  await expect(exporter.entry(latest.id)).toContainText(
    `npm run studio -- bridge sft ${latest.outDir} --target ms-swift --out ${latest.outDir}-sft-ms-swift --max-pixels 1003520`,
  );
  await expect(exporter.entry(latest.id)).toContainText(
    `npm run studio -- bridge grpo ${latest.outDir} --target verl --embed-images --out ${latest.outDir}-grpo-verl --max-pixels 1003520`,
  );
  // A --status all export holds unreviewed model output: the page says the bridge will refuse it.
  await expect(exporter.entry(latest.id)).toContainText("--allow-unreviewed");
  // The form is free again for the next export.
  await expect(page.getByRole("button", { name: "Start export" })).toBeEnabled();
});

for (const role of ["reviewer", "annotator"] as const) {
  test.describe(`as ${role}`, () => {
    test.use({ storageState: storageStateFor(role) });

    test(`${role}s find the admin pages forbidden and the admin APIs refused @storage`, async ({ page }) => {
      for (const path of ["/admin/people", "/admin/audit", "/export"]) {
        await page.goto(path);
        await expect(page).toHaveURL(/\/forbidden/);
        await expect(page.getByText("Not allowed", { exact: true })).toBeVisible();
      }
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "People" })).toHaveCount(0);
      for (const url of ["/api/users", "/api/audit", "/api/audit/facets", "/api/exports", "/api/tokens?scope=all"]) {
        expect((await page.request.get(url)).status(), url).toBe(403);
      }
    });
  });
}

test.describe("as annotator", () => {
  test.use({ storageState: storageStateFor("annotator") });

  test("an annotator reads the history of their own steps only @storage", async ({ request, baseURL }) => {
    const own = (await (await request.get("/api/trajectories?pageSize=1")).json()) as { rows: { id: string }[] };
    const mine = (await (await request.get(`/api/trajectories/${own.rows[0]!.id}`)).json()) as { steps: { id: string }[] };
    const history = await request.get(`/api/audit?entityType=step&entityId=${mine.steps[0]!.id}`);
    expect(history.status()).toBe(200);
    expect(await history.json()).toMatchObject({ rows: expect.any(Array), total: expect.any(Number) });

    const admin = await apiRequest.newContext({ baseURL, storageState: storageStateFor("admin") });
    const all = (await (await admin.get("/api/trajectories?pageSize=200")).json()) as { rows: { id: string; assignee: string | null }[] };
    const other = all.rows.find((r) => r.assignee !== "annotator@studio.local")!;
    const theirs = (await (await admin.get(`/api/trajectories/${other.id}`)).json()) as { steps: { id: string }[] };
    expect((await request.get(`/api/audit?entityType=step&entityId=${theirs.steps[0]!.id}`)).status()).toBe(403);
    await admin.dispose();
  });
});
