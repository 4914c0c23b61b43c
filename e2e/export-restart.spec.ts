import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { expect, test } from "@playwright/test";
import { e2eDatabaseUrl, e2eDataDir } from "./env";
import { ExportPage } from "./pages/export-page";

// Issue 11, finding 7: a restart lost a running export without a trace and left a .partial folder.
// Here another studio process (sharing the server's database and data dir) runs an export and is
// killed mid-way; the running server's export page reports it as failed and the partial is gone.
const exportsDir = path.join(e2eDataDir, "exports");
const partials = () => (existsSync(exportsDir) ? readdirSync(exportsDir).filter((n) => n.includes(".partial-")) : []);

test("an export whose process is killed mid-way shows as failed on the export page, with nothing half-written left @storage", async ({
  page,
  request,
}) => {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("lib/server/testing/export-child.ts"), "web"], {
    env: { ...process.env, STUDIO_DATA_DIR: e2eDataDir, DATABASE_URL: e2eDatabaseUrl },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (l) => l === "exporting" && resolve());
    child.on("exit", (code) => reject(new Error(`export child exited (${code}) before exporting`)));
  });
  const running = ((await (await request.get("/api/exports")).json()) as { exports: { id: string; state: string }[] }).exports.find(
    (e) => e.state === "running",
  );
  expect(running, "the server reports the other process's export as running").toBeTruthy();
  expect(partials()).toHaveLength(1);

  await new Promise<void>((resolve) => {
    child.on("exit", () => resolve());
    child.kill("SIGKILL");
  });

  const exporter = new ExportPage(page);
  await exporter.goto();
  const entry = exporter.entry(running!.id);
  await expect(entry.getByText("Export failed", { exact: true })).toBeVisible();
  await expect(entry.getByText(/stopped .*Start the export again/)).toBeVisible();
  expect(partials()).toEqual([]);
  // The page is not stuck on it: a new export starts and finishes.
  await exporter.start({ status: "all" });
  await expect(exporter.current.getByRole("heading")).toHaveText("Export finished", { timeout: 30_000 });
});
