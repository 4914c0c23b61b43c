// Issue 27 item 3, releases: a release cut with dropNearDuplicates keeps only the keeper of each group of
// re-runs among its matching work, records it in its filters, and its dataset card says so. A real SQLite
// studio with planted re-runs (testing/near-duplicate-studio.ts); the CLI and the card through their real code.
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import { runBridge } from "@/lib/bridge/cli";
import { captureIo } from "@/lib/bridge/test-fixtures";
import { CLI_ACTOR } from "../people/audit";
import type { Db } from "../db";
import { exportRelease } from "./release";
import { cutRelease } from "./snapshots";
import { plantedReRuns, type PlantedIds } from "../testing/near-duplicate-studio";

let db: Db;
let admin: Actor;
let id: PlantedIds;

beforeAll(async () => {
  ({ db, admin, id } = await plantedReRuns());
});

const memberIds = async (snapshotId: string) =>
  (await db.snapshotMember.findMany({ where: { snapshotId }, select: { trajectoryId: true } })).map((m) => m.trajectoryId).sort();

describe("a release that drops near-duplicates", () => {
  it("keeps every re-run unless asked", async () => {
    const all = await cutRelease({ caller: admin, name: "everything", status: "all" }, db);
    expect(all.trajectories).toBe(5);
    expect(all.filters).toMatchObject({ dropNearDuplicates: false, nearDuplicatesLeftOut: 0 });
  });

  it("keeps only the keeper of each group (the one a person judged), and records how many it left out", async () => {
    const r = await cutRelease({ caller: admin, name: "deduped", status: "all", dropNearDuplicates: true }, db);
    expect(await memberIds(r.id)).toEqual([id.again, id.other, id.elsewhere].sort());
    expect(r).toMatchObject({ trajectories: 3, steps: 6 });
    expect(r.filters).toMatchObject({ dropNearDuplicates: true, nearDuplicatesLeftOut: 2 });
  });

  it("groups only the matching work: a keeper the filter leaves out does not take its re-runs with it", async () => {
    // "again" (the keeper) moved to another app: among the Clock work, first and thrice are still a group.
    await db.trajectory.update({ where: { id: id.again }, data: { app: "Alarms" } });
    const clock = await cutRelease({ caller: admin, name: "clock", status: "all", apps: ["Clock"], dropNearDuplicates: true }, db);
    const kept = await memberIds(clock.id);
    expect(kept).not.toContain(id.again);
    expect(kept.filter((k) => k === id.first || k === id.thrice)).toHaveLength(1);
    expect(kept).toEqual(expect.arrayContaining([id.other, id.elsewhere]));
    expect(clock.filters).toMatchObject({ nearDuplicatesLeftOut: 1 });
    await db.trajectory.update({ where: { id: id.again }, data: { app: "Clock" } });
  });

  it("the CLI's --drop-near-duplicates cuts the same release, and its card states the filter", async () => {
    const { runRelease } = await import("@/lib/cli/snapshots");
    const out: string[] = [];
    const code = await runRelease(
      ["cut", "--name", "cli", "--status", "all", "--drop-near-duplicates", "--json"],
      { out: (s) => out.push(s), err: (s) => out.push(s) },
      async () => ({ migrate: async () => undefined, CLI_ACTOR }),
    );
    expect(code, out.join("")).toBe(0);
    const cut = JSON.parse(out.join("")) as { id: string; number: number; trajectories: number };
    expect(await memberIds(cut.id)).toEqual([id.again, id.other, id.elsewhere].sort());

    const dir = await mkdtemp(path.join(os.tmpdir(), "release-dups-"));
    const exported = path.join(dir, "release");
    await exportRelease({ caller: admin, number: cut.number, outDir: exported }, db);
    const sft = path.join(dir, "sft");
    const io = captureIo();
    expect(
      await runBridge(
        ["sft", exported, "--out", sft, "--target", "ms-swift", "--shards", "parquet", "--license", "CC-BY-4.0", "--allow-unreviewed"],
        io,
      ),
      io.err(),
    ).toBe(0);
    const card = await readFile(path.join(sft, "README.md"), "utf8");
    expect(card).toContain("near-duplicates dropped (2 trajectories left out, one keeper per group kept)");
  });
});
