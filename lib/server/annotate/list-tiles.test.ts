// Issue 36 item 1: the tiles above the trajectory list follow its filters. GET /api/trajectories answers,
// beside the page, the tally of every row the filters keep (all pages): the same WHERE as the list's
// count. The real route over a real SQLite studio (testing/near-duplicate-studio.ts: five trajectories).
import { beforeAll, describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/trajectories/route";
import { trajectoryPageSchema, type TrajectoryPage } from "@/lib/domain/views";
import { TASK_STATUSES } from "@/lib/domain/status";
import { CLI_ACTOR } from "../people/audit";
import { plantedReRuns } from "../testing/near-duplicate-studio";
import { createToken } from "../people/tokens";

let token = "";

async function list(query: string): Promise<TrajectoryPage> {
  const res = await listRoute(
    new Request(`http://127.0.0.1:3000/api/trajectories?pageSize=200&${query}`, { headers: { authorization: `Bearer ${token}` } }),
    { params: Promise.resolve({}) } as never,
  );
  expect(res.status).toBe(200);
  return trajectoryPageSchema.parse(await res.json());
}

/** What the tiles must say of a list whose rows all fit on the page: counted from the rows themselves. */
function countedFromRows(page: TrajectoryPage) {
  return {
    trajectories: page.rows.length,
    steps: page.rows.reduce((n, r) => n + r.stepCount, 0),
    apps: new Set(page.rows.map((r) => r.app)).size,
    byStatus: Object.fromEntries(TASK_STATUSES.map((s) => [s, page.rows.filter((r) => r.status === s).length])),
  };
}

beforeAll(async () => {
  const { db } = await plantedReRuns();
  token = (await createToken({ actor: CLI_ACTOR, user: "admin@test.local", name: "t" }, db)).token;
});

describe("the list's tiles follow its filters", () => {
  it("unfiltered, they count the whole list", async () => {
    const page = await list("");
    expect(page.total).toBe(5);
    expect(page.tally).toEqual(countedFromRows(page));
  });

  it("under each filter, they count exactly the rows the list keeps", async () => {
    const all = await list("");
    const someApp = all.rows[0]!.app;
    const word = all.rows[0]!.instruction.split(/\s+/)[0]!;
    for (const query of [
      `app=${encodeURIComponent(someApp)}`,
      "duplicates=only",
      `q=${encodeURIComponent(word)}`,
      "status=new",
      "status=approved",
    ]) {
      const page = await list(query);
      expect(page.tally, query).toEqual(countedFromRows(page));
      expect(page.tally.trajectories, query).toBe(page.total);
    }
    const filtered = await list("duplicates=only");
    expect(filtered.tally.trajectories).toBeLessThan(all.tally.trajectories);
  });

  it("count every page, not just the one shown", async () => {
    const page = await list("pageSize=2&page=2&sort=instruction");
    expect(page.rows).toHaveLength(2);
    expect(page.tally.trajectories).toBe(5);
    expect(page.tally).toEqual(countedFromRows(await list("")));
  });

  it("are all zero when nothing matches", async () => {
    const page = await list("app=NoSuchApp");
    expect(page.tally).toEqual({ trajectories: 0, steps: 0, apps: 0, byStatus: Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) });
  });
});
