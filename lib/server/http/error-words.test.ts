import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { localize } from "@/lib/i18n";
import { appError, AppError } from "../errors/errors";
import { englishOf, readStoredError, storedMessageOf, storeMessage } from "../errors/stored-message";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Non-test server sources under `dir` (recursively). */
function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" || e.name === "testing" ? [] : sources(rel);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [rel] : [];
  });
}

/**
 * Issue 23 item 6, as far as it has gone: an error a person meets is built with `appError` and a
 * catalogue key, so a Chinese reader gets a Chinese sentence. These are the places still building an
 * AppError from an English string (its zh reader sees the kind's sentence and the English as the
 * detail line). The list may only shrink: a new `new AppError("…")` elsewhere fails here.
 */
const STILL_ENGLISH: Record<string, number> = {
  "lib/server/errors/errors.ts": 1, // appError itself
  "lib/server/errors/image-problem.ts": 1, // ImageProblem: an import problem's code and parameters, worded on the import page
  "lib/server/model/call-errors.ts": 1, // the endpoint's answer: catalogue words plus the endpoint's own as `upstream`
};

describe("server errors in the person's language", () => {
  it("are built from catalogue keys everywhere but the places listed (which may only shrink)", () => {
    const found: Record<string, number> = {};
    for (const file of [...sources("lib/server"), ...sources("server")]) {
      const n = readFileSync(path.join(ROOT, file), "utf8").match(/new AppError\(/g)?.length ?? 0;
      if (n) found[file] = n;
    }
    for (const [file, n] of Object.entries(found))
      expect(n, `${file}: new AppError(...) with English words; use appError with a catalogue key`).toBeLessThanOrEqual(
        STILL_ENGLISH[file] ?? 0,
      );
  });

  it("a person met by an upload, a conflict or a missing record reads one sentence in Chinese", () => {
    for (const e of [
      appError("conflict", "error.personExists", { email: "a@b.c" }),
      appError("bad_request", "error.uploadOneJsonl", { n: 2 }),
      appError("conflict", "error.exportRunning", { id: "2026-11-25_all" }),
      appError("conflict", "error.assignLocked", { n: 2, status: { key: "status.submitted" } }),
    ]) {
      const zh = e.messageFor("zh");
      expect(zh, e.message).toMatch(/[\u4e00-\u9fff]/);
      // Only the values (an email, an id, a number) stay in Latin letters.
      expect(zh.replace(/a@b\.c|2026-11-25_all|\.jsonl|\.zip/g, ""), e.message).not.toMatch(/[A-Za-z]{2,}/);
    }
    expect(appError("conflict", "error.assignLocked", { n: 2, status: { key: "status.submitted" } }).messageFor("zh")).toBe(
      "其中 2 条为“已提交”；它们保留原标注员",
    );
  });
});

describe("a failed job's stored error", () => {
  it("keeps a worded error's key and values, and an unworded one's English as the detail", () => {
    const worded = storedMessageOf(appError("not_found", "error.screenshotMissing", { id: "ab12" }), "job.exportFailed");
    expect(worded).toEqual({ key: "error.screenshotMissing", vars: { id: "ab12" } });
    const plain = storedMessageOf(new AppError("conflict", "something English"), "job.exportFailed");
    expect(plain).toEqual({ key: "error.code.conflict", detail: "something English" });
    // A bug is never shown: the job's own sentence, its cause in the log.
    expect(storedMessageOf(new Error("TypeError at line 3"), "job.exportFailed")).toEqual({ key: "job.exportFailed" });
  });

  it("is read back as English for scripts and as a message for the page, old plain rows included", () => {
    const stored = storeMessage({ key: "job.modelStopped", vars: { n: 5 }, detail: "HTTP 500" });
    expect(readStoredError(stored)).toEqual({
      error: "Stopped after 5 failures in a row; the last one is below. HTTP 500",
      errorMessage: { key: "job.modelStopped", vars: { n: 5 }, detail: "HTTP 500" },
    });
    const legacy =
      "The studio process running this import stopped (last heard from 2026-11-25T10:00:00.000Z); nothing was imported. Import the file again.";
    expect(readStoredError(legacy)).toEqual({
      error: legacy,
      errorMessage: { key: "job.importStopped", vars: { heardAt: "2026-11-25T10:00:00.000Z" } },
    });
    expect(readStoredError("disk on fire").errorMessage).toEqual({ key: "job.failed", detail: "disk on fire" });
    expect(readStoredError(null)).toEqual({ error: null, errorMessage: null });
    expect(localize({ key: "job.modelStopped", vars: { n: 5 } }, "zh")).toBe("连续失败 5 次后已停止；最后一次的详情见下方。");
    // A very long detail is cut, and the stored text stays readable JSON.
    const long = storeMessage({ key: "job.failed", detail: "x".repeat(10_000) });
    expect(englishOf(readStoredError(long).errorMessage!)).toHaveLength("It failed. ".length + 2_001);
  });
});
