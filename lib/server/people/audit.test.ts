import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_ACTOR } from "./audit";
import { exportDataset } from "../export";
import { importFile } from "../import";
import { blankPng, freshStudio } from "../testing/fixtures";

// The audit rows of the other kinds of change are asserted beside their use cases: sign-in and user
// changes (auth.test.ts), step edits and status changes (annotate.test.ts), assignments
// (assign.test.ts), review decisions (review.test.ts), tokens (auth.test.ts).
describe("audit trail of imports and exports", () => {
  it("records who imported and exported what, with the counts", async () => {
    const { db, dir } = await freshStudio();
    const src = await mkdtemp(path.join(os.tmpdir(), "audit-"));
    await writeFile(path.join(src, "s.png"), await blankPng(1080, 2400));
    await writeFile(
      path.join(src, "d.jsonl"),
      `${JSON.stringify({ goal: "g", steps: [{ action_content: { action: "open", text: "A" }, screenshot: "s.png" }] })}\n`,
    );
    const admin = { id: null, label: "admin@example.com" };
    const r = await importFile({ file: path.join(src, "d.jsonl"), format: "ui-s1", actor: admin, db });
    await exportDataset({ outDir: path.join(dir, "out"), status: "all", actor: CLI_ACTOR, db });

    const rows = await db.auditEvent.findMany({ orderBy: { at: "asc" } });
    expect(rows.map((x) => [x.action, x.actorLabel])).toEqual([
      ["import.batch", "admin@example.com"],
      ["export.run", "cli"],
    ]);
    expect(rows[0]!.entityId).toBe(r.ok ? r.batchId : "?");
    expect(JSON.parse(rows[0]!.afterJson!)).toMatchObject({ format: "ui-s1", file: "d.jsonl", trajectories: 1, steps: 1, duplicates: 0 });
    expect(JSON.parse(rows[1]!.afterJson!)).toMatchObject({ filters: { status: "all" }, counts: { trajectories: 1, steps: 1 } });
  });
});
