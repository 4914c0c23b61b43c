// A server starting after a crash tidies up: an import whose process died is marked failed (its staged rows go),
// while one that is still alive elsewhere (a fresh heartbeat) is left alone.
import { describe, expect, it } from "vitest";
import { recoverAtStart } from "./";
import { freshStudio } from "../testing/fixtures";

describe("recoverAtStart", () => {
  it("marks an import whose heartbeat stopped failed and keeps a live one running", async () => {
    const { db } = await freshStudio();
    const project = await db.project.create({ data: { name: "crash" } });
    const batch = (heartbeatAt: Date, fileName: string) =>
      db.importBatch.create({
        data: { projectId: project.id, format: "ui-s1", fileName, fileSha256: fileName, status: "running", heartbeatAt },
      });
    const dead = await batch(new Date(Date.now() - 5 * 60_000), "dead.jsonl");
    const alive = await batch(new Date(), "alive.jsonl");
    await recoverAtStart();
    expect((await db.importBatch.findUniqueOrThrow({ where: { id: dead.id } })).status).toBe("failed");
    expect((await db.importBatch.findUniqueOrThrow({ where: { id: alive.id } })).status).toBe("running");
  });
});
