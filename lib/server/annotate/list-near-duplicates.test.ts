// Issue 27 item 3, the list: GET /api/trajectories?duplicates=only answers just the trajectories in a
// near-duplicate group (keepers and the others), each row saying its group's keeper and whether it is it;
// the other filters still apply, and visibility still holds. The real route over a real SQLite studio with
// planted re-runs (testing/near-duplicate-studio.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/trajectories/route";
import { trajectoryPageSchema, type TrajectoryPage } from "@/lib/domain/views";
import { saveStepAnnotation } from "./annotation";
import { CLI_ACTOR } from "../people/audit";
import { studioNearDuplicates } from "./near-duplicates";
import { getTrajectory } from "./trajectories";
import { plantedReRuns, type PlantedIds } from "../testing/near-duplicate-studio";
import { createToken } from "../people/tokens";
import { createUser } from "../people";
import type { Db } from "../db";

let db: Db;
let id: PlantedIds;
const token: Record<"admin" | "annotator", string> = { admin: "", annotator: "" };

async function list(query: string, who: keyof typeof token = "admin"): Promise<{ status: number; page?: TrajectoryPage }> {
  const res = await listRoute(
    new Request(`http://127.0.0.1:3000/api/trajectories?${query}`, { headers: { authorization: `Bearer ${token[who]}` } }),
    { params: Promise.resolve({}) } as never,
  );
  return { status: res.status, page: res.ok ? trajectoryPageSchema.parse(await res.json()) : undefined };
}

beforeAll(async () => {
  ({ db, id } = await plantedReRuns());
  token.admin = (await createToken({ actor: CLI_ACTOR, user: "admin@test.local", name: "t" }, db)).token;
  await createUser({ actor: CLI_ACTOR, email: "ann@example.com", role: "annotator", password: "password-123" }, db);
  token.annotator = (await createToken({ actor: CLI_ACTOR, user: "ann@example.com", name: "t" }, db)).token;
});

describe("the trajectory list filtered to near-duplicates", () => {
  it("without the filter lists everything and says nothing about groups", async () => {
    const { page } = await list("");
    expect(page!.total).toBe(5);
    expect(page!.rows.every((r) => r.nearDuplicate === undefined)).toBe(true);
  });

  it("duplicates=only lists the group's members, each with its keeper", async () => {
    const { status, page } = await list("duplicates=only");
    expect(status).toBe(200);
    expect(page!.total).toBe(3);
    const byId = Object.fromEntries(page!.rows.map((r) => [r.id, r.nearDuplicate]));
    expect(byId).toEqual({
      [id.again]: { keeperId: id.again, isKeeper: true, groupSize: 3 },
      [id.first]: { keeperId: id.again, isKeeper: false, groupSize: 3 },
      [id.thrice]: { keeperId: id.again, isKeeper: false, groupSize: 3 },
    });
  });

  it("the other filters and paging still apply", async () => {
    const { page } = await list("duplicates=only&q=ALARM&pageSize=2&sort=instruction");
    expect(page!.total).toBe(3);
    expect(page!.rows).toHaveLength(2);
    expect((await list("duplicates=only&app=Mail")).page!.total).toBe(0);
  });

  it("an annotator sees only the members given to them", async () => {
    expect((await list("duplicates=only", "annotator")).page!.total).toBe(0);
    const ann = await db.user.findUniqueOrThrow({ where: { email: "ann@example.com" } });
    await db.trajectory.update({ where: { id: id.first }, data: { assigneeId: ann.id } });
    const { page } = await list("duplicates=only", "annotator");
    expect(page!.rows.map((r) => [r.id, r.nearDuplicate?.isKeeper])).toEqual([[id.first, false]]);
  });

  it("a keeper that changes is seen at once (the cached groups follow the studio's changes)", async () => {
    expect((await list("duplicates=only")).page!.rows.find((r) => r.id === id.first)!.nearDuplicate!.isKeeper).toBe(false);
    // Nothing changed: the same groups, not grouped again.
    expect(await studioNearDuplicates(db)).toBe(await studioNearDuplicates(db));
    // A person judges both steps of "first": more reviewed than "again" (one step), so it becomes the keeper.
    const admin = { id: "u-admin", email: "admin@test.local", name: "Admin", role: "admin" } as const;
    for (const step of (await getTrajectory(id.first, db)).steps) {
      await saveStepAnnotation(
        {
          actor: admin,
          stepId: step.id,
          thought: { ...step.thought, nextAction: "Tap it.", purpose: "To open it." },
          clearAction: step.clearAction,
          toolCall: step.toolCall,
          box: [50, 150, 250, 250],
          verdict: "good",
          version: step.version,
        },
        db,
      );
    }
    const rows = (await list("duplicates=only")).page!.rows;
    expect(rows.map((r) => r.nearDuplicate!.keeperId)).toEqual([id.first, id.first, id.first]);
  });

  it("refuses an unknown value, naming the field", async () => {
    const res = await listRoute(
      new Request("http://127.0.0.1:3000/api/trajectories?duplicates=all", { headers: { authorization: `Bearer ${token.admin}` } }),
      { params: Promise.resolve({}) } as never,
    );
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("duplicates");
  });
});
