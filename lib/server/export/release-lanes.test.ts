// Issue 27 item 1: a release cut from a lane filter (the first-error fast lane, lib/domain/lane.ts) holds only the
// work handed in through those lanes, records the filter, and its dataset card says which filter made it. A real
// SQLite studio: hand-ins through the real fast lane and the real full submit.
import { readFile } from "node:fs/promises";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import type { Actor } from "@/lib/domain/permissions";
import { runBridge } from "@/lib/bridge/cli";
import { captureIo } from "@/lib/bridge/test-fixtures";
import { saveStepAnnotation, saveTrajectoryAnnotation, submitTrajectory } from "../annotate";
import type { Db } from "../db";
import { submitFastLane } from "../annotate/fast-lane";
import { importFile } from "../import";
import { exportRelease } from "./release";
import { cutRelease } from "./snapshots";
import { getTrajectory } from "../annotate/trajectories";
import { blankPng, freshStudio } from "../testing/fixtures";

let db: Db;
let admin: Actor;
const ids: Record<"fast" | "full" | "never", string> = { fast: "", full: "", never: "" };

beforeAll(async () => {
  const s = await freshStudio();
  db = s.db;
  await writeFile(path.join(s.dir, "s.png"), await blankPng(1080, 2400));
  const u = await db.user.create({ data: { id: "u-admin", email: "admin@test.local", name: "Admin", role: "admin" } });
  admin = { id: u.id, email: u.email, name: u.name, role: "admin" };
  const goals = { fast: "Set an alarm for 7", full: "Start a timer", never: "Archive the first mail" };
  const file = path.join(s.dir, "seed.jsonl");
  const line = (goal: string) =>
    JSON.stringify({
      goal,
      app: "Clock",
      steps: [0, 1].map((i) => ({
        action_content: { action: "click", coordinate: [100 + i, 200] },
        thought: `Tap item ${i + 1}.`,
        action_description: `Tap item ${i + 1}`,
        screenshot: "s.png",
      })),
    });
  await writeFile(file, `${Object.values(goals).map(line).join("\n")}\n`);
  expect((await importFile({ file, format: "ui-s1", screenshotsDir: s.dir, db })).ok).toBe(true);
  for (const [k, goal] of Object.entries(goals)) {
    ids[k as keyof typeof ids] = (await db.trajectory.findFirstOrThrow({ where: { instruction: goal } })).id;
  }
  // The fast lane: no step went wrong.
  const fast = await getTrajectory(ids.fast, db);
  await submitFastLane({ actor: admin, id: ids.fast, version: fast.version, outcome: "success", firstError: null }, db);
  // The full lane: every step judged, the outcome set, submitted.
  for (const step of (await getTrajectory(ids.full, db)).steps) {
    await saveStepAnnotation(
      {
        actor: admin,
        stepId: step.id,
        thought: { ...step.thought, nextAction: "Tap the item.", purpose: "To open it." },
        clearAction: step.clearAction,
        toolCall: step.toolCall,
        box: [50, 150, 250, 250],
        verdict: "good",
        version: step.version,
      },
      db,
    );
  }
  const full = await getTrajectory(ids.full, db);
  await saveTrajectoryAnnotation(
    { actor: admin, id: ids.full, outcome: "success", isDiscarded: false, cutAfter: null, version: full.version },
    db,
  );
  await submitTrajectory({ actor: admin, id: ids.full }, db);
  const lanes = await db.trajectory.findMany({ select: { id: true, lane: true } });
  expect(Object.fromEntries(lanes.map((t) => [t.id, t.lane]))).toEqual({ [ids.fast]: "fast", [ids.full]: "full", [ids.never]: null });
});

const memberIds = async (snapshotId: string) =>
  (await db.snapshotMember.findMany({ where: { snapshotId }, select: { trajectoryId: true } })).map((m) => m.trajectoryId).sort();

describe("a release cut by lanes", () => {
  it("holds only the work handed in through the lanes asked for, and records them", async () => {
    const fast = await cutRelease({ caller: admin, name: "fast-only", status: "all", lanes: ["fast"] }, db);
    expect(fast).toMatchObject({ number: 1, trajectories: 1, steps: 2 });
    expect(fast.filters).toMatchObject({ status: "all", apps: [], lanes: ["fast"] });
    expect(await memberIds(fast.id)).toEqual([ids.fast]);

    const both = await cutRelease({ caller: admin, name: "handed-in", status: "all", lanes: ["full", "fast", "fast"] }, db);
    expect(both.filters).toMatchObject({ lanes: ["fast", "full"] });
    expect(await memberIds(both.id)).toEqual([ids.fast, ids.full].sort());

    const any = await cutRelease({ caller: admin, name: "everything", status: "all" }, db);
    expect(any.filters).toMatchObject({ lanes: [] });
    expect(await memberIds(any.id)).toEqual(Object.values(ids).sort());
  });

  it("refuses a lane that does not exist, naming the field, and cuts nothing", async () => {
    const before = await db.snapshot.count();
    const e = await cutRelease({ caller: admin, name: "bad", status: "all", lanes: ["slow" as "fast"] }, db).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ZodError);
    expect((e as ZodError).issues[0]!.path).toEqual(["lanes", 0]);
    expect(await db.snapshot.count()).toBe(before);
  });

  it("the release's dataset card and Croissant file say which filter made it", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "release-lanes-"));
    const exported = path.join(dir, "release-1");
    await exportRelease({ caller: admin, number: 1, outDir: exported }, db);
    const out = path.join(dir, "sft");
    const io = captureIo();
    const code = await runBridge(
      ["sft", exported, "--out", out, "--target", "ms-swift", "--shards", "parquet", "--license", "CC-BY-4.0", "--allow-unreviewed"],
      io,
    );
    expect(code, io.err()).toBe(0);
    const card = await readFile(path.join(out, "README.md"), "utf8");
    expect(card).toContain('Filter: status "all"; every app; lanes fast;');
    const croissant = JSON.parse(await readFile(path.join(out, "croissant.json"), "utf8")) as Record<string, unknown>;
    expect(croissant["rai:dataAnnotationProtocol"]).toContain('Filter: status "all"; every app; lanes fast.');
  });
});
