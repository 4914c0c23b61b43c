import type { APIRequestContext } from "@playwright/test";
import { makeBrokenJsonl, makeUiS1Zip } from "./datasets";
import { expect, test } from "./fixtures";

const trajectoryCount = async (request: APIRequestContext) =>
  ((await (await request.get("/api/stats")).json()) as { trajectories: number }).trajectories;

test("uploading a .zip imports its trajectory @storage", async ({ page, importPage, list, request }, testInfo) => {
  const goal = `E2E zip import ${Date.now()}`;
  const zip = await makeUiS1Zip(testInfo.outputPath("zip"), goal);
  const before = await trajectoryCount(request);

  await importPage.goto();
  await importPage.upload([zip], { format: "ui-s1", project: "e2e" });
  await expect(importPage.result).toContainText("Import succeeded");
  await expect(importPage.result).toContainText("Imported 1 trajectory and 2 steps into project e2e");
  const row = importPage.recentImports.getByRole("row", { name: /batch\.zip\/batch\/data\.jsonl/ }).first();
  await expect(row).toContainText("Imported");
  await expect(row).toContainText("admin@studio.local");
  expect(await trajectoryCount(request)).toBe(before + 1);

  await list.goto();
  expect(await list.count("Trajectories")).toBe(before + 1);
  await list.search(goal);
  await expect(list.rows).toHaveCount(1);
  await list.openTrajectory(goal);
  await expect(page.getByRole("status", { name: "Step counter" })).toHaveText("Step 1 / 2");
});

test("a broken .jsonl names its problems and imports nothing @storage", async ({ importPage, request }, testInfo) => {
  const { jsonl, images } = await makeBrokenJsonl(testInfo.outputPath("broken"));
  const before = await trajectoryCount(request);

  await importPage.goto();
  await importPage.upload([jsonl, ...images], { format: "ui-s1" });
  await expect(importPage.result).toContainText("Import failed — nothing was imported");
  await expect(importPage.problems.filter({ hasText: "broken JSON" })).toHaveCount(1);
  const broken = importPage.problems.filter({ hasText: "broken JSON" });
  await expect(broken.getByRole("cell").nth(0)).toHaveText("broken.jsonl");
  await expect(broken.getByRole("cell").nth(1)).toHaveText("2");
  await expect(importPage.problems.filter({ hasText: "missing_0.png" }).first()).toContainText("screenshot");
  await expect(importPage.result).not.toContainText("e2e-data"); // no server paths in messages
  // Counts by kind come first: the two missing screenshots of line 3 are one kind, counted 2.
  const missing = importPage.problemKinds.filter({ hasText: "screenshot" });
  await expect(missing).toHaveCount(1);
  await expect(missing.getByRole("cell").nth(0)).toHaveText("2");
  expect(await trajectoryCount(request)).toBe(before);
  // The refused import is listed too, with its problem count, so nobody wonders where it went.
  const row = importPage.recentImports.getByRole("row", { name: /broken\.jsonl/ }).first();
  await expect(row).toContainText("Refused");
  await expect(row).toContainText(/\d+ problems found; nothing was imported/);
});

test("the import API refuses a zip entry that escapes the folder @storage", async ({ request, baseURL }, testInfo) => {
  const yazl = (await import("yazl")).default;
  const { createWriteStream, readFileSync } = await import("node:fs");
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from("{}\n"), "data.jsonl");
  // yazl refuses "..", so write a harmless name and patch it to "../evil.txt" (same length) in the bytes.
  zip.addBuffer(Buffer.from("x"), "aa/evil.txt");
  zip.end();
  const file = testInfo.outputPath("evil.zip");
  await new Promise<void>((r) => zip.outputStream.pipe(createWriteStream(file)).on("close", () => r()));
  const bytes = Buffer.from(readFileSync(file).toString("latin1").replaceAll("aa/evil.txt", "../evil.txt"), "latin1");

  const res = await request.post("/api/imports", {
    headers: { origin: baseURL! },
    multipart: { format: "ui-s1", files: { name: "evil.zip", mimeType: "application/zip", buffer: bytes } },
  });
  expect(res.status()).toBe(422);
  const body = (await res.json()) as { error: { message: string } };
  expect(body.error.message).toMatch(/outside the archive folder|invalid relative path/);
});
