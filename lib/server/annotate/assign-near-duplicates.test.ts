// Issue 27 item 3, assignment: bulk assign and "start next task" can pass over near-duplicates that are not
// their group's keeper, so nobody corrects the same run twice. A real SQLite studio with planted re-runs
// (testing/near-duplicate-studio.ts): "again" keeps the group {first, again, thrice}.
import { beforeAll, describe, expect, it } from "vitest";
import { POST as nextTaskRoute } from "@/app/api/tasks/next/route";
import type { Actor } from "@/lib/domain/permissions";
import { assignTrajectories } from "./assign";
import { CLI_ACTOR } from "../people/audit";
import type { Db } from "../db";
import { startNextTask } from "./tasks";
import { plantedReRuns, type PlantedIds } from "../testing/near-duplicate-studio";
import { createToken } from "../people/tokens";

let db: Db;
let admin: Actor;
let id: PlantedIds;

async function annotator(name: string): Promise<Actor> {
  const u = await db.user.create({ data: { id: `u-${name}`, email: `${name}@test.local`, name, role: "annotator" } });
  return { id: u.id, email: u.email, name: u.name, role: "annotator" };
}
const assigneeOf = async (tid: string) =>
  (await db.trajectory.findUniqueOrThrow({ where: { id: tid }, select: { assignee: { select: { email: true } } } })).assignee?.email ??
  null;

beforeAll(async () => {
  ({ db, admin, id } = await plantedReRuns());
});

describe("assignment that skips near-duplicates", () => {
  it("bulk assign gives only the keepers and the rest, counting what it skipped", async () => {
    const ann = await annotator("ann");
    const all = Object.values(id);
    const r = await assignTrajectories({ actor: admin, trajectoryIds: all, assignee: ann.email, skipNearDuplicates: true }, db);
    expect(r).toEqual({ assigned: 3, unchanged: 0, skipped: 2 });
    expect(await assigneeOf(id.again)).toBe(ann.email);
    expect(await assigneeOf(id.other)).toBe(ann.email);
    expect(await assigneeOf(id.first)).toBeNull();
    expect(await assigneeOf(id.thrice)).toBeNull();
    // Unasked, everything goes (the re-runs too).
    expect(await assignTrajectories({ actor: admin, trajectoryIds: all, assignee: ann.email }, db)).toEqual({
      assigned: 2,
      unchanged: 3,
    });
    await assignTrajectories({ actor: admin, trajectoryIds: all, assignee: null }, db);
  });

  it("start next task passes over the re-runs when asked, through POST /api/tasks/next", async () => {
    const taken: (string | null)[] = [];
    for (const name of ["p1", "p2", "p3", "p4"]) {
      const who = await annotator(name);
      const { token } = await createToken({ actor: CLI_ACTOR, user: who.email, name: "t" }, db);
      const res = await nextTaskRoute(
        new Request("http://127.0.0.1:3000/api/tasks/next?skipNearDuplicates=true", {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
        }),
        { params: Promise.resolve({}) } as never,
      );
      expect(res.status).toBe(200);
      taken.push(((await res.json()) as { id: string | null }).id);
    }
    // "again" (the keeper) is in progress already (the admin judged a step of it), so not in the pool; its
    // re-runs are never handed out in its place.
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: id.again } })).status).toBe("in_progress");
    expect(taken.slice(0, 2).sort()).toEqual([id.other, id.elsewhere].sort());
    expect(taken.slice(2)).toEqual([null, null]);
    // Unasked, a re-run is handed out.
    const late = await startNextTask({ actor: await annotator("late") }, db);
    expect([id.first, id.thrice]).toContain(late);
  });
});
