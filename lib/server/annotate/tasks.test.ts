import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import { CLI_ACTOR } from "../people/audit";
import { importFile } from "../import";
import { createUser } from "../people";
import { startNextTask } from "./tasks";
import { blankPng, freshStudio } from "../testing/fixtures";

describe("leases", () => {
  it("a task taken from the pool returns to it when its lease lapses; an admin's assignment does not", async () => {
    const { db } = await freshStudio();
    const dir = await mkdtemp(path.join(os.tmpdir(), "lease-"));
    await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
    await writeFile(
      path.join(dir, "d.jsonl"),
      `${JSON.stringify({ goal: "only task", steps: [{ action_content: { action: "open", text: "A" }, screenshot: "s.png" }] })}\n`,
    );
    await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
    const mk = async (email: string): Promise<Actor> => {
      const { person: user } = await createUser({ actor: CLI_ACTOR, email, role: "annotator" }, db);
      return { id: user.id, email, name: user.name, role: "annotator" };
    };
    const a = await mk("a@example.com");
    const b = await mk("b@example.com");
    const now = Date.now();

    const id = await startNextTask({ actor: a }, db, new Date(now));
    expect(id).not.toBeNull();
    expect(await startNextTask({ actor: b }, db, new Date(now + 5 * 60_000))).toBeNull(); // a's lease still runs
    expect(await startNextTask({ actor: b }, db, new Date(now + 11 * 60_000))).toBe(id); // lapsed: b takes it
    const take = await db.auditEvent.findFirstOrThrow({ where: { action: "trajectory.take", actorLabel: "b@example.com" } });
    expect(JSON.parse(take.beforeJson!)).toMatchObject({ assigneeId: a.id });

    // An admin gives it back to a, with no lease: it stays a's however long they are away.
    await db.trajectory.update({ where: { id: id! }, data: { assigneeId: a.id, leaseUntil: null } });
    expect(await startNextTask({ actor: b }, db, new Date(now + 24 * 60 * 60_000))).toBeNull();
    expect(await startNextTask({ actor: a }, db, new Date(now + 24 * 60 * 60_000))).toBe(id);
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: id! } })).leaseUntil).toBeNull();
  });
});
