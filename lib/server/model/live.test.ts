// The same adapter against a real endpoint: runs when STUDIO_MODEL_URL and STUDIO_MODEL_NAME are set
// (STUDIO_MODEL_KEY optional), and is skipped, and counted as skipped, otherwise.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importFile } from "../import";
import { testModelConnection } from "./index";
import { suggestForStep } from "./suggest";
import { blankPng, freshStudio } from "../testing/fixtures";

const isConfigured = !!process.env.STUDIO_MODEL_URL && !!process.env.STUDIO_MODEL_NAME;

describe.skipIf(!isConfigured)(`a real model endpoint (${process.env.STUDIO_MODEL_URL ?? "STUDIO_MODEL_URL not set"})`, () => {
  it("answers test connection and a Suggest thought with the three parts", async () => {
    const { db, dir } = await freshStudio();
    const admin = await db.user.create({ data: { id: "u-admin", email: "admin@test.local", name: "admin", role: "admin" } });
    const actor = { id: admin.id, email: admin.email, name: admin.name, role: "admin" as const };
    const test = await testModelConnection({ actor }, db);
    expect(test.reason).toBeNull();
    expect(test.ok).toBe(true);
    expect(test.reply?.length).toBeGreaterThan(0);

    await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400, "#ffffff"));
    await writeFile(
      path.join(dir, "d.jsonl"),
      `${JSON.stringify({ goal: "Open the Settings app", steps: [{ action_content: { action: "open", text: "Settings" }, screenshot: "s.png" }] })}\n`,
    );
    await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
    const step = await db.step.findFirstOrThrow();
    await db.trajectory.update({ where: { id: step.trajectoryId }, data: { assigneeId: admin.id, status: "in_progress" } });
    const s = await suggestForStep({ actor, stepId: step.id, kind: "thought" }, db);
    expect(s.kind).toBe("thought");
    if (s.kind === "thought")
      for (const part of [s.output.state, s.output.nextAction, s.output.purpose]) expect(part.trim().length).toBeGreaterThan(0);
  });
});
