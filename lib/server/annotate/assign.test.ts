import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import { assignTrajectories } from "./assign";
import { CLI_ACTOR } from "../people/audit";
import type { Db } from "../db";
import { importFile } from "../import";
import { createUser } from "../people";
import { listTrajectories } from "./trajectory-list";
import { blankPng, freshStudio } from "../testing/fixtures";

let db: Db;
let admin: Actor;
let ids: string[];

beforeAll(async () => {
  ({ db } = await freshStudio());
  const mk = async (email: string, role: Actor["role"]) => {
    const { person: user } = await createUser({ actor: CLI_ACTOR, email, role, password: "password-123" }, db);
    return { id: user.id, email, name: user.name, role } as Actor;
  };
  admin = await mk("boss@example.com", "admin");
  await mk("ann@example.com", "annotator");
  await mk("rev@example.com", "reviewer");
  const dir = await mkdtemp(path.join(os.tmpdir(), "assign-"));
  await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
  const line = (g: string) => JSON.stringify({ goal: g, steps: [{ action_content: { action: "open", text: "A" }, screenshot: "s.png" }] });
  await writeFile(path.join(dir, "d.jsonl"), ["one", "two", "three"].map(line).join("\n"));
  await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
  ids = (await db.trajectory.findMany({ orderBy: { instruction: "asc" } })).map((t) => t.id);
});

describe("assigning work", () => {
  it("gives trajectories to an annotator, who then sees exactly those, with an audit row each", async () => {
    expect(await assignTrajectories({ actor: admin, trajectoryIds: ids.slice(0, 2), assignee: "ann@example.com" }, db)).toEqual({
      assigned: 2,
      unchanged: 0,
    });
    const ann = await db.user.findUniqueOrThrow({ where: { email: "ann@example.com" } });
    const seen = await listTrajectories(
      { page: 1, pageSize: 50, actor: { id: ann.id, email: ann.email, name: ann.name, role: "annotator" } },
      db,
    );
    expect(seen.rows.map((r) => r.id).sort()).toEqual(ids.slice(0, 2).sort());
    const audit = await db.auditEvent.findMany({ where: { action: "trajectory.assign" } });
    expect(audit).toHaveLength(2);
    expect(JSON.parse(audit[0]!.beforeJson!)).toEqual({ assigneeId: null });
    expect(JSON.parse(audit[0]!.afterJson!)).toMatchObject({ assigneeId: ann.id, assignee: "ann@example.com" });
  });

  it("returns work to the pool, and counts what did not change", async () => {
    expect(await assignTrajectories({ actor: admin, trajectoryIds: ids, assignee: null }, db)).toEqual({ assigned: 2, unchanged: 1 });
    expect(await db.trajectory.count({ where: { assigneeId: { not: null } } })).toBe(0);
  });

  it("refuses reviewers as assignees, unknown people, work under review, and non-admins", async () => {
    await expect(assignTrajectories({ actor: admin, trajectoryIds: ids, assignee: "rev@example.com" }, db)).rejects.toThrow(/reviewer/);
    await expect(assignTrajectories({ actor: admin, trajectoryIds: ids, assignee: "ghost@example.com" }, db)).rejects.toMatchObject({
      code: "not_found",
    });
    await db.trajectory.update({ where: { id: ids[2]! }, data: { status: "submitted" } });
    await expect(assignTrajectories({ actor: admin, trajectoryIds: ids, assignee: "ann@example.com" }, db)).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await db.trajectory.count({ where: { assigneeId: { not: null } } })).toBe(0);
    await expect(
      assignTrajectories({ actor: { ...admin, role: "reviewer" }, trajectoryIds: ids, assignee: null }, db),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});
